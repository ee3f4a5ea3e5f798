/**
 * Subjects of the inbox stream (the journal): every shard inbox subject,
 * `_troupe.inbox.<shard>.<kind>.<id>`.
 */
export const INBOX_STREAM_SUBJECTS = ["_troupe.inbox.>"] as const;

/**
 * Subjects of the event stream: every event of every actor,
 * `troupe.<kind>.<id>.events.<eventType>`. The transient `run.delta` events
 * published there carry `Nats-Expected-Stream: <P>_DELTAS`, so the event stream
 * does not store them; they are stored under {@link DELTA_STREAM_SUBJECTS}
 * (docs/decisions/0014).
 */
export const EVENT_STREAM_SUBJECTS = ["troupe.*.*.events.>"] as const;

/**
 * Subjects of the deltas stream (`<P>_DELTAS`): the transient `run.delta` events
 * of each session, `_troupe.delta.<sessionId>`, kept for the deltas retention
 * (default 1 h) apart from the durable events (docs/decisions/0014).
 */
export const DELTA_STREAM_SUBJECTS = ["_troupe.delta.>"] as const;

/** Subjects of the dead-letter stream: `_troupe.deadletter.<kind>.<id>`. */
export const DEAD_LETTER_STREAM_SUBJECTS = ["_troupe.deadletter.>"] as const;

/**
 * Subjects of the transcript stream: the append-only conversation log of each
 * session, `_troupe.transcript.<sessionId>` (kept outside snapshots, so a snapshot stays small however long the conversation).
 */
export const TRANSCRIPT_STREAM_SUBJECTS = ["_troupe.transcript.>"] as const;

/**
 * Subjects of the execution-claims stream (`<P>_CLAIMS`): one claim per
 * at-most-once tool call, `_troupe.claim.<sha-256 of the idempotency key, hex>`
 * (docs/decisions/0031).
 */
export const CLAIM_STREAM_SUBJECTS = ["_troupe.claim.>"] as const;

/**
 * The subject of one tool call's execution claim.
 *
 * @param idempotencyKeyHash - the SHA-256 of the call's idempotency key, lower-case hex (64 characters).
 * @example executionClaimSubject("9f86…") // "_troupe.claim.9f86…"
 */
export function executionClaimSubject(idempotencyKeyHash: string): string {
  return `_troupe.claim.${idempotencyKeyHash}`;
}
