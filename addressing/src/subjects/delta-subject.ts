import { assertActorId } from "../address/actor-address.js";
import { INTERNAL_SUBJECT_ROOT } from "./subject-token.js";

/**
 * Subject under which the deltas stream (`<P>_DELTAS`) stores a session's
 * transient `run.delta` events (internal).
 *
 * Token layout: `_troupe.delta.<sessionId>` (3 tokens). A host publishes every
 * delta twice: on the public `troupe.session.<id>.events.run.delta` for live
 * subscribers, with the header {@link EXPECTED_STREAM_HEADER} naming the deltas
 * stream so that the events stream (whose `troupe.*.*.events.>` captures the
 * subject) refuses to store it, and here, where the deltas stream keeps it for
 * the deltas retention (default 1 h). A subagent's deltas use the parent
 * session's id, like their public subject.
 *
 * @param sessionId - a valid actor id.
 * @returns e.g. `"_troupe.delta.demo-1"`.
 * @throws InvalidAddressError when `sessionId` is not a valid actor id.
 */
export function deltaSubject(sessionId: string): string {
  assertActorId(sessionId);
  return `${INTERNAL_SUBJECT_ROOT}.delta.${sessionId}`;
}

/**
 * JetStream's `Nats-Expected-Stream` header: a stream that captures a message
 * carrying another stream's name here does not store it. Set on the public copy
 * of a `run.delta` (value: the deltas stream's name), which is how the events
 * stream stays free of transient events while the public subject is unchanged
 * (docs/decisions/0014).
 */
export const EXPECTED_STREAM_HEADER = "Nats-Expected-Stream";
