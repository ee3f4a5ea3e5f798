import { TroupeError } from "@troupe/protocol";

/**
 * The session refused a message the client sent (`message.rejected` naming its
 * message id): for example a run was active under policy `reject`
 * (`run_active`), the session is closed (`session_closed`), or the payload was
 * invalid (`decode_failed`). Not retryable as is. Code `message_rejected`.
 *
 * Shape: `TroupeError` plus `sessionId`, `messageId` (envelope id),
 * `rejectionCode` (the event's `code`), `reason` (its sentence) and `sequence`
 * (events-stream sequence of the `message.rejected` event).
 *
 * @example
 * ```ts
 * try {
 *   await client.sendAndWait("s1", "hello");
 * } catch (error) {
 *   if (MessageRejectedError.isInstance(error) && error.rejectionCode === "run_active") retryLater();
 * }
 * ```
 */
export class MessageRejectedError extends TroupeError {
  /** The session that refused the message. */
  readonly sessionId: string;
  /** Envelope id of the refused message. */
  readonly messageId: string;
  /** The `code` of the `message.rejected` event, e.g. `run_active`. */
  readonly rejectionCode: string;
  /** The `reason` of the `message.rejected` event, a sentence for humans. */
  readonly reason: string;
  /** Events-stream sequence of the `message.rejected` event. */
  readonly sequence: number;

  /**
   * @param rejection - `sessionId`, `messageId`, `rejectionCode`, `reason`, `sequence`.
   */
  constructor(rejection: {
    readonly sessionId: string;
    readonly messageId: string;
    readonly rejectionCode: string;
    readonly reason: string;
    readonly sequence: number;
  }) {
    super(
      "message_rejected",
      `Session ${rejection.sessionId} rejected message ${rejection.messageId} ` +
        `(${rejection.rejectionCode}): ${rejection.reason}`,
      { retryable: false, details: { ...rejection } },
    );
    this.name = "MessageRejectedError";
    this.sessionId = rejection.sessionId;
    this.messageId = rejection.messageId;
    this.rejectionCode = rejection.rejectionCode;
    this.reason = rejection.reason;
    this.sequence = rejection.sequence;
  }

  /**
   * Whether `value` is a `MessageRejectedError` from any copy of the package.
   *
   * @param value - anything, typically a caught exception.
   * @returns `true` for a branded Troupe error with code `message_rejected`.
   */
  static override isInstance(value: unknown): value is MessageRejectedError {
    return TroupeError.isInstance(value) && value.code === "message_rejected";
  }
}
