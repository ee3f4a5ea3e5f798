/**
 * JetStream streams of a deployment.
 *
 * | stream | subjects | role |
 * | --- | --- | --- |
 * | `<P>_INBOX` | `_troupe.inbox.>` | every actor inbox (via the server's subject mapping) — also the journal |
 * | `<P>_EVENTS` | `troupe.*.*.events.>` | durable events, replayable from a sequence (not `run.delta`: see `deltaSubject`) |
 * | `<P>_DELTAS` | `_troupe.delta.>` | transient `run.delta` events, kept briefly (default 1 h) |
 * | `<P>_DEADLETTER` | `_troupe.deadletter.>` | rejected messages with their reason |
 * | `<P>_TRANSCRIPT` | `_troupe.transcript.>` | append-only conversation log of each session |
 * | `<P>_CLAIMS` | `_troupe.claim.>` | one execution claim per at-most-once tool call, beside the journal (docs/decisions/0031) |
 *
 * `<P>` is the upper-cased deployment prefix (default `TROUPE`).
 */
export interface StreamNames {
  readonly inbox: string;
  readonly events: string;
  /** The transient `run.delta` events, apart from the durable events (docs/decisions/0014). */
  readonly deltas: string;
  readonly deadLetter: string;
  readonly transcript: string;
  /**
   * Execution claims of at-most-once tool calls (`non_idempotent_write`,
   * `unclassified`): one message per idempotency key, written before the call
   * runs, so a call whose Redis idempotency record was lost (failover, crash)
   * is never run again (decision 0031).
   */
  readonly claims: string;
}

/**
 * Stream names for a deployment prefix.
 *
 * @param prefix - deployment prefix, e.g. `troupe`.
 * @returns the stream names.
 */
export function streamNames(prefix: string): StreamNames {
  const base = prefix.toUpperCase().replace(/[^A-Z0-9_-]/g, "_");
  return {
    inbox: `${base}_INBOX`,
    events: `${base}_EVENTS`,
    deltas: `${base}_DELTAS`,
    deadLetter: `${base}_DEADLETTER`,
    transcript: `${base}_TRANSCRIPT`,
    claims: `${base}_CLAIMS`,
  };
}
