import type { EventEnvelope, EventType } from "@troupe/protocol";
import type { SessionEvent } from "./session-event.js";

/**
 * Builds a {@link SessionEvent} for unit tests (no server): `actor` defaults to
 * `session/s1`, the envelope id to `<actor>:ev:<sequence>`.
 *
 * @param sequence - events-stream sequence.
 * @param type - event type.
 * @param payload - its payload (not validated).
 * @param meta - `actor`, `id`, `transient`.
 * @returns the event.
 */
export function testEvent(
  sequence: number,
  type: EventType,
  payload: Record<string, unknown>,
  meta: { actor?: string; id?: string; transient?: true } = {},
): SessionEvent {
  const actor = meta.actor ?? "session/s1";
  const envelope = {
    v: 1,
    id: meta.id ?? `${actor}:ev:${sequence}`,
    type,
    payload,
    meta: {
      actor,
      seq: meta.transient === true ? 0 : sequence,
      timestampMs: 1_700_000_000_000,
      ...(meta.transient === true ? { transient: true } : {}),
    },
  } as unknown as EventEnvelope<EventType>;
  return { sequence, subject: `troupe.session.s1.events.${type}`, pending: 0, event: envelope };
}
