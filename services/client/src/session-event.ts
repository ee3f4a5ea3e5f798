import type { EventEnvelope, EventType } from "@troupe/protocol";

/**
 * One event of a session as the client yields it: the decoded envelope plus
 * where it sits in the deployment's events stream.
 *
 * Shape: `{ sequence: number, subject: string, event: EventEnvelope, pending: number }`.
 * - `sequence`: the events-stream (`<PREFIX>_EVENTS`) sequence, 1-based and
 *   growing; pass `sequence + 1` as `fromSequence` to resume after this event.
 * - `pending`: how many more stored events of the session the server had not
 *   delivered to this iteration when this one arrived (0 = caught up with the
 *   stream; a hint, since new events may arrive at any time).
 * - `subject`: e.g. `troupe.session.s1.events.run.completed`.
 * - `event`: `{ v: 1, id, type, payload, meta }`; its payload type narrows on `event.type`
 *   (`event.meta.actor` says which actor emitted it: `session/<id>`,
 *   `run/<id>`, `tool/<…>`, or a subagent's `session/sub-…`).
 */
export interface SessionEvent {
  /** Events-stream sequence of the event (1-based). */
  readonly sequence: number;
  /** NATS subject the event was published on. */
  readonly subject: string;
  /** Stored events of the session not yet delivered to this iteration (0 = caught up). */
  readonly pending: number;
  /** The decoded, validated event envelope (a union that narrows on `type`). */
  readonly event: EventEnvelope<EventType>;
}
