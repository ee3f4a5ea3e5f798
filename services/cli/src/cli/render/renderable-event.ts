import type { EventEnvelope } from "@troupe/protocol";

/**
 * One event of a session's event stream, as `troupe tail` and `troupe chat`
 * read it: the stream sequence, the NATS subject and the decoded envelope.
 * The client's session event has this shape, so it can be passed as is.
 *
 * Shape: `{ sequence: number, subject: string, event: EventEnvelope }`.
 */
export interface RenderableEvent {
  /** Position in the JetStream stream (1+). */
  readonly sequence: number;
  /** Subject the event was published on (`troupe.session.<id>.events.<type>` …). */
  readonly subject: string;
  /** The event; its payload is checked against its type's schema before it is rendered. */
  readonly event: EventEnvelope;
}
