import {
  VERDICT_COMMAND_TYPES,
  emitEvent,
  type CommandSettled,
  type CommandVerdict,
  type VerdictCommandType,
} from "@troupe/protocol";

/** The commands a session answers with a verdict: protocol's `VERDICT_COMMAND_TYPES` (docs/decisions/0013). */
export const COMMAND_TYPES = VERDICT_COMMAND_TYPES;
/** One of {@link COMMAND_TYPES}. */
export type CommandType = VerdictCommandType;

/** The fields of a machine event a verdict reads: its type, envelope id and forwarded `commandId`. */
export interface CommandEventLike {
  readonly type: string;
  readonly messageId?: string;
  readonly commandId?: string | undefined;
}

/**
 * The id a verdict names: the `commandId` a forwarding session put on the
 * message, else the message's own envelope id.
 */
export const commandIdOf = (event: CommandEventLike): string =>
  event.commandId ?? event.messageId ?? "";

/**
 * The `command.settled` event answering `event` (docs/decisions/0013).
 *
 * @param event - the command as the machine took it.
 * @param verdict - what the machine did with it.
 * @param details - `reason` (a sentence, for every verdict but `applied`),
 *   `runId`, `toolCallId`, `questionId`, `decision`.
 * @returns the host action that publishes it.
 */
export function commandSettled(
  event: CommandEventLike,
  verdict: CommandVerdict,
  details: Omit<CommandSettled, "commandId" | "command" | "verdict"> = {},
) {
  const defined = Object.fromEntries(
    Object.entries(details).filter(([, value]) => value !== undefined),
  ) as Omit<CommandSettled, "commandId" | "command" | "verdict">;
  return emitEvent("command.settled", {
    commandId: commandIdOf(event),
    command: event.type,
    verdict,
    ...defined,
  });
}
