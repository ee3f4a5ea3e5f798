import {
  VerdictTimeoutError,
  type CommandOutcome,
  type CommandReceipt,
  type TroupeClient,
} from "@troupe/client";

/**
 * What happened to a command (see {@link confirmCommand}): the session's
 * verdict on it (`applied`, `already_settled`, `nothing_to_act_on`,
 * `unknown_id`, `rejected`), or `no_verdict` when none came within the wait —
 * no host consumed it (a session with nothing to do says so at once, so this
 * is never "no run").
 */
export type CommandVerdict = CommandOutcome | { readonly verdict: "no_verdict" };

/**
 * Sends a command and waits for the session's verdict on it, matched by the
 * command's id (so of an approve and a deny racing on one call, each reports
 * its own fate).
 *
 * @param client - connected client.
 * @param sessionId - the session.
 * @param send - publishes the command (e.g. `() => client.approve(…)`).
 * @param timeoutMs - how long to wait, in ms; default 5 000 ms.
 * @returns the verdict.
 */
export async function confirmCommand(
  client: TroupeClient,
  sessionId: string,
  send: () => Promise<CommandReceipt>,
  timeoutMs = 5_000,
): Promise<CommandVerdict> {
  try {
    return await client.awaitVerdict(sessionId, send, { timeoutMs });
  } catch (error) {
    if (VerdictTimeoutError.isInstance(error)) return { verdict: "no_verdict" };
    throw error;
  }
}
