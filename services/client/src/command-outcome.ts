import type { CommandVerdict, EventEnvelope } from "@troupe/protocol";

/**
 * What the session did with one command (docs/decisions/0013), as
 * {@link TroupeClient.awaitVerdict} reports it:
 * - `applied`, `already_settled`, `nothing_to_act_on`, `unknown_id`: the
 *   command's `command.settled` (`event`), with the reason when it did nothing;
 * - `rejected`: the command's `message.rejected` (invalid, or refused: closed
 *   session, …) with its `code`.
 *
 * Shape: `{ verdict, commandId, reason?, code?, event }`.
 */
export type CommandOutcome =
  | {
      readonly verdict: CommandVerdict;
      /** Envelope id of the command (`CommandReceipt.messageId`). */
      readonly commandId: string;
      readonly reason: string | undefined;
      readonly event: EventEnvelope<"command.settled">;
    }
  | {
      readonly verdict: "rejected";
      readonly commandId: string;
      readonly code: string;
      readonly reason: string;
      readonly event: EventEnvelope<"message.rejected">;
    };
