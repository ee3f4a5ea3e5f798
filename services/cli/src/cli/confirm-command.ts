import type { EventEnvelope } from "@troupe/protocol";
import type { TroupeClient, CommandReceipt } from "@troupe/client";

/**
 * What happened to a command (see {@link confirmCommand}):
 * - `done`: the event showing its effect arrived (e.g. `tool.approval_settled`);
 * - `accepted`: the session accepted it (and no effect event was expected);
 * - `no_effect`: accepted, but the expected effect did not follow in time
 *   (an unknown tool call id, say);
 * - `rejected`: the session refused it;
 * - `unanswered`: nothing within the wait (no host running?).
 */
export type CommandVerdict =
  | { readonly status: "done"; readonly event: EventEnvelope }
  | { readonly status: "accepted" }
  | { readonly status: "no_effect" }
  | { readonly status: "rejected"; readonly code: string; readonly reason: string }
  | { readonly status: "unanswered" };

/**
 * Sends a command and follows the session's events for its verdict: the
 * `message.rejected` or `message.accepted` naming it and, when `effect` is
 * given, the event that shows it took effect.
 *
 * @param client - connected client.
 * @param sessionId - the session.
 * @param send - publishes the command (e.g. `() => client.approve(…)`).
 * @param effect - recognises the event of the command's effect (optional).
 * @param timeoutMs - how long to wait, in ms; default 5 000 ms.
 * @returns the verdict.
 */
export async function confirmCommand(
  client: TroupeClient,
  sessionId: string,
  send: () => Promise<CommandReceipt>,
  effect?: (event: EventEnvelope) => boolean,
  timeoutMs = 5_000,
): Promise<CommandVerdict> {
  const fromSequence = (await client.lastSequence()) + 1;
  const receipt = await send();
  const signal = AbortSignal.timeout(timeoutMs);
  let accepted = false;
  try {
    for await (const { event } of client.events(sessionId, { fromSequence, signal })) {
      if (effect?.(event) === true) return { status: "done", event };
      const payload = event.payload as { messageId?: unknown; code?: unknown; reason?: unknown };
      // An undecodable message is named by its inbox sequence instead of its id.
      const ours =
        payload.messageId === receipt.messageId ||
        payload.messageId === `session/${sessionId}:in:${receipt.streamSequence}`;
      if (!ours) continue;
      if (event.type === "message.rejected") {
        return { status: "rejected", code: String(payload.code), reason: String(payload.reason) };
      }
      if (event.type === "message.accepted") {
        if (effect === undefined) return { status: "accepted" };
        accepted = true;
      }
    }
  } catch (error) {
    if (!signal.aborted) throw error;
  }
  return { status: accepted ? "no_effect" : "unanswered" };
}
