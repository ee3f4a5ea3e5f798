import type { BuiltinEventSchemas, EventType } from "../v1/event-schemas.js";
import type { PayloadOf } from "../v1/payload-of.js";
import {
  APPEND_ACTION,
  CANCEL_EFFECT_ACTION,
  EFFECT_ACTION,
  EMIT_ACTION,
  SEND_ACTION,
  type AppendParams,
  type CancelEffectParams,
  type EffectRequestParams,
  type EmitEventParams,
  type SendMessageParams,
} from "./host-actions.js";

// Creators of host action objects (`{ type, params }`), for transitions, `entry`
// and `enqueueActions`. See host-actions.ts for what the host does with each.

/**
 * An action object that asks the host to run an effect.
 *
 * @param params - the effect name, its input and optionally a stable id.
 * @returns a `troupe.effect` action object for use in transitions or `entry`.
 */
export function requestEffect(params: EffectRequestParams): {
  type: typeof EFFECT_ACTION;
  params: EffectRequestParams;
} {
  return { type: EFFECT_ACTION, params };
}

/**
 * An action object that asks the host to send a message to another actor.
 *
 * @param params - target address, message type and payload.
 * @returns a `troupe.send` action object.
 */
export function sendMessage(params: SendMessageParams): {
  type: typeof SEND_ACTION;
  params: SendMessageParams;
} {
  return { type: SEND_ACTION, params };
}

/**
 * An action object that asks the host to append an entry to an append-only log.
 *
 * @param params - log name, key, 0-based index and the entry.
 * @returns a `troupe.append` action object.
 *
 * @example
 * appendEntry({ log: "transcript", key: "s1", index: 0, entry: { role: "user", text: "hi", messageId: "m1" } });
 */
export function appendEntry(params: AppendParams): {
  type: typeof APPEND_ACTION;
  params: AppendParams;
} {
  return { type: APPEND_ACTION, params };
}

/**
 * An action object that asks the host to abort a running effect.
 *
 * @param params - the id of the effect to abort.
 * @returns a `troupe.cancelEffect` action object.
 */
export function cancelEffect(params: CancelEffectParams): {
  type: typeof CANCEL_EFFECT_ACTION;
  params: CancelEffectParams;
} {
  return { type: CANCEL_EFFECT_ACTION, params };
}

/**
 * An action object that asks the host to publish a built-in event, its payload
 * checked against the protocol's schema at compile time.
 *
 * @param type - a built-in event type (`builtinEventSchemas`).
 * @param payload - the event payload, exactly as published.
 * @returns a `troupe.emit` action object.
 *
 * @example
 * emitEvent("message.accepted", { messageId: "m1", type: "user.message", runId: "r1" });
 */
export function emitEvent<T extends EventType>(
  type: T,
  payload: PayloadOf<BuiltinEventSchemas, T>,
): { type: typeof EMIT_ACTION; params: EmitEventParams } {
  return { type: EMIT_ACTION, params: { type, payload: payload as Record<string, unknown> } };
}
