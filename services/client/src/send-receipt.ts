/**
 * What `send` returns once JetStream stored the message (it says nothing yet
 * about what the session did with it; follow `events()` or use `waitForRun`).
 *
 * Shape: `{ sessionId, messageId, clientMessageId, streamSequence, duplicate }`.
 * - `messageId`: the envelope id (`message.accepted.messageId`,
 *   `run.started.messageId` and `message.rejected.messageId` carry it); derived
 *   from `clientMessageId`, so a retried send has the same one.
 * - `clientMessageId`: the caller's id, or the generated UUID.
 * - `streamSequence`: the sequence the inbox stream (`<PREFIX>_INBOX`) stored
 *   the message at (for a duplicate: the sequence of the first copy).
 * - `duplicate`: JetStream's dedup window (2 minutes by default) had already
 *   stored a message with the same id; nothing new was stored.
 */
export interface SendReceipt {
  /** The session the message went to. */
  readonly sessionId: string;
  /** Envelope id of the message. */
  readonly messageId: string;
  /** Client message id (given or generated). */
  readonly clientMessageId: string;
  /** Inbox-stream sequence of the stored message. */
  readonly streamSequence: number;
  /** Whether JetStream reported the publish as a duplicate. */
  readonly duplicate: boolean;
}

/**
 * What `approve`, `deny`, `answer`, `steer` and `cancel` return once JetStream
 * stored the message: its envelope id (the `commandId` of the session's
 * `command.settled`, or the `messageId` of its `message.rejected`, for it) and
 * its inbox-stream sequence. Pass the publish to `awaitVerdict` to wait for
 * that verdict.
 */
export interface CommandReceipt {
  readonly sessionId: string;
  /** Envelope id of the message (a random UUID). */
  readonly messageId: string;
  /** Sequence of the message in the inbox stream. */
  readonly streamSequence: number;
}
