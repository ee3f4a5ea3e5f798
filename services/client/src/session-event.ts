import type { EventEnvelope, EventType } from "@troupe/protocol";

/**
 * One event of a session as the client yields it: the decoded envelope plus
 * where it sits in the deployment's events stream.
 *
 * Shape: `{ sequence: number, subject: string, event: EventEnvelope, pending: number, deltaSequence?: number }`.
 * - `sequence`: the events-stream (`<PREFIX>_EVENTS`) sequence, 1-based and
 *   growing; pass `sequence + 1` as `fromSequence` to resume after this event.
 *   A transient `run.delta` is not in the events stream (docs/decisions/0014): its
 *   `sequence` is that of the last durable event yielded before it (or
 *   `fromSequence - 1`),
 *   so resuming at `sequence + 1` still loses nothing.
 * - `deltaSequence`: set on a `run.delta` read from the deltas stream
 *   (`<PREFIX>_DELTAS`): its sequence there.
 * - `pending`: how many more stored events of the session the server had not
 *   delivered to this iteration when this one arrived (0 = caught up with the
 *   stream; a hint, since new events may arrive at any time).
 * - `subject`: e.g. `troupe.session.s1.events.run.completed`.
 * - `event`: `{ v: 1, id, type, payload, meta }`; its payload type narrows on `event.type`
 *   (`event.meta.actor` says which actor emitted it: `session/<id>`,
 *   `run/<id>`, `tool/<…>`, or a subagent's `session/sub-…`).
 */
export interface SessionEvent {
  /** Events-stream sequence of the event (1-based); for a delta, of the durable event before it. */
  readonly sequence: number;
  /** Deltas-stream sequence of a `run.delta` (absent on durable events). */
  readonly deltaSequence?: number;
  /** NATS subject the event was published on. */
  readonly subject: string;
  /** Stored events of the session not yet delivered to this iteration (0 = caught up); of its own stream for a delta. */
  readonly pending: number;
  /** The decoded, validated event envelope (a union that narrows on `type`). */
  readonly event: EventEnvelope<EventType>;
}
