import type { InboxEvent } from "@troupe/protocol";

/** Stream time used by tests when none is given: 2025-01-01T00:00:00Z, Unix ms. */
export const TEST_TIME_MS = 1_735_689_600_000;

/**
 * A machine event as the host makes it from an inbox message.
 *
 * @param type - message type.
 * @param payload - message payload.
 * @param messageId - envelope id.
 * @param timestampMs - stream time, Unix ms (default {@link TEST_TIME_MS}).
 */
export function inboxEvent<Type extends string, Payload extends object>(
  type: Type,
  payload: Payload,
  messageId: string,
  timestampMs = TEST_TIME_MS,
): InboxEvent<Type, Payload> {
  return { ...payload, type, messageId, timestampMs };
}

/**
 * The action xstate requests for an `after` delay (a durable timer for the host).
 *
 * @param id - xstate's id of the delayed event (`xstate.after.<delay>.<machine>.<state>`).
 * @param delayMs - the delay, in ms.
 */
export function timerArmed(id: string, delayMs: number) {
  return { type: "xstate.raise", params: { event: { type: id }, id, delay: delayMs } };
}

/**
 * The action xstate requests when a state with an `after` delay is left early.
 *
 * @param id - the timer's id.
 */
export function timerCancelled(id: string) {
  return { type: "xstate.cancel", params: { sendId: id } };
}
