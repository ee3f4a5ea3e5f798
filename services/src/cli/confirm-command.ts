import type { TroupeClient } from "../client/troupe-client.js";
import type { CommandReceipt } from "../client/send-receipt.js";

/** What the session said about a command (see {@link confirmCommand}). */
export type CommandVerdict =
  | { readonly status: "accepted" }
  | { readonly status: "rejected"; readonly code: string; readonly reason: string }
  | { readonly status: "unanswered" };

/**
 * Sends a command and waits for the session's `message.accepted` or
 * `message.rejected` naming it, so the CLI can say which happened.
 *
 * @param client - connected client.
 * @param sessionId - the session.
 * @param send - publishes the command (e.g. `() => client.approve(…)`).
 * @param timeoutMs - how long to wait for the verdict, in ms; default 5 000 ms.
 * @returns the verdict; `unanswered` when no host answered in time.
 */
export async function confirmCommand(
  client: TroupeClient,
  sessionId: string,
  send: () => Promise<CommandReceipt>,
  timeoutMs = 5_000,
): Promise<CommandVerdict> {
  const fromSequence = (await client.lastSequence()) + 1;
  const receipt = await send();
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    for await (const { event } of client.events(sessionId, { fromSequence, signal })) {
      const payload = event.payload as { messageId?: unknown; code?: unknown; reason?: unknown };
      // An undecodable message is named by its inbox sequence instead of its id.
      const ours =
        payload.messageId === receipt.messageId ||
        payload.messageId === `session/${sessionId}:in:${receipt.streamSequence}`;
      if (!ours) continue;
      if (event.type === "message.accepted") return { status: "accepted" };
      if (event.type === "message.rejected") {
        return { status: "rejected", code: String(payload.code), reason: String(payload.reason) };
      }
    }
  } catch (error) {
    if (!signal.aborted) throw error;
  }
  return { status: "unanswered" };
}
