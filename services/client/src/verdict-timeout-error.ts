import { TroupeError } from "@troupe/protocol";

/**
 * `awaitVerdict` saw no verdict on the command within `timeoutMs`: no host
 * consumed it (none runs, or none owns the session's shard yet). A session
 * that has nothing to act on says so at once (`nothing_to_act_on`), so this
 * means "no host", never "no run" (docs/decisions/0013). The command stays in the inbox
 * and is carried out when a host comes; waiting again may succeed, so it is
 * retryable. Code `timeout`.
 *
 * Shape: `TroupeError` plus `sessionId`, `commandId`, `timeoutMs`.
 */
export class VerdictTimeoutError extends TroupeError {
  /** The session the command was sent to. */
  readonly sessionId: string;
  /** Envelope id of the command. */
  readonly commandId: string;
  /** The deadline that passed, in ms. */
  readonly timeoutMs: number;

  /**
   * @param sessionId - the session.
   * @param commandId - the command's envelope id.
   * @param timeoutMs - the deadline that passed, in ms.
   */
  constructor(sessionId: string, commandId: string, timeoutMs: number) {
    super(
      "timeout",
      `No verdict on command ${commandId} from session ${sessionId} within ${timeoutMs} ms (is a host running?).`,
      { retryable: true, details: { sessionId, commandId, timeoutMs } },
    );
    this.name = "VerdictTimeoutError";
    this.sessionId = sessionId;
    this.commandId = commandId;
    this.timeoutMs = timeoutMs;
  }

  /**
   * Whether `value` is a `VerdictTimeoutError` from any copy of the package.
   *
   * @param value - anything, typically a caught exception.
   * @returns `true` for a branded Troupe error with code `timeout` and this name.
   */
  static override isInstance(value: unknown): value is VerdictTimeoutError {
    return (
      TroupeError.isInstance(value) &&
      value.code === "timeout" &&
      value.name === "VerdictTimeoutError"
    );
  }
}
