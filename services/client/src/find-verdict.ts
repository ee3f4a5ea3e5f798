import type { EventEnvelope } from "@troupe/protocol";
import type { CommandOutcome } from "./command-outcome.js";
import type { CommandReceipt } from "./send-receipt.js";
import type { SessionEvent } from "./session-event.js";

/**
 * The verdict on one command among a session's events: the `command.settled`
 * whose `commandId`, or the `message.rejected` whose `messageId`, names the
 * command (an undecodable one is named by its inbox sequence,
 * `session/<id>:in:<seq>`). Never matched by the tool call or question id the
 * command names, so of two racing commands each finds its own (docs/decisions/0013).
 *
 * @param events - the session's events from before the command was published.
 * @param receipt - the command's receipt.
 * @returns the outcome, or undefined when the events end first.
 */
export async function findVerdict(
  events: AsyncIterable<SessionEvent>,
  receipt: CommandReceipt,
): Promise<CommandOutcome | undefined> {
  const names = new Set([
    receipt.messageId,
    `session/${receipt.sessionId}:in:${receipt.streamSequence}`,
  ]);
  for await (const { event } of events) {
    const outcome = verdictOf(event, names);
    if (outcome !== undefined) return outcome;
  }
  return undefined;
}

function verdictOf(event: EventEnvelope, names: Set<string>): CommandOutcome | undefined {
  if (event.type === "command.settled") {
    const settled = event as EventEnvelope<"command.settled">;
    if (!names.has(settled.payload.commandId)) return undefined;
    return {
      verdict: settled.payload.verdict,
      commandId: settled.payload.commandId,
      reason: settled.payload.reason,
      event: settled,
    };
  }
  if (event.type === "message.rejected") {
    const rejected = event as EventEnvelope<"message.rejected">;
    const { messageId } = rejected.payload;
    if (messageId === undefined || !names.has(messageId)) return undefined;
    return {
      verdict: "rejected",
      commandId: messageId,
      code: rejected.payload.code,
      reason: rejected.payload.reason,
      event: rejected,
    };
  }
  return undefined;
}
