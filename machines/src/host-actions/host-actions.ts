/**
 * Action conventions between pure machines and the actor host.
 *
 * Machines never do IO. To ask the host for something, a machine executes one of
 * the named actions below; xstate's pure `transition()` returns them as action
 * objects (`{ type, params }`) and the host carries them out after the snapshot is
 * committed (see ../../../shared/DESIGN.md, "Effects"):
 *
 * - `troupe.effect` — run a registered effect handler; its result comes back into
 *   the actor's own inbox as an {@link EffectCompletedEvent} or
 *   {@link EffectFailedEvent}.
 * - `troupe.send` — publish a message to another actor's inbox
 *   (`troupe.<kind>.<id>.in`).
 * - `emit(...)` (xstate's own) — publish an event on the actor's event subjects.
 * - `after` delays and `raise(..., { delay })` — become durable timers held by the
 *   host, fired into the inbox at their deadline.
 *
 * Spread {@link hostActionImplementations} into `setup({ actions })` so xstate
 * knows the action names; the implementations are no-ops by design.
 */

/** Parameters of a `troupe.effect` action: which handler, with what input. */
export interface EffectRequestParams {
  /** Name of an effect handler registered on the host for this actor kind. */
  readonly effect: string;
  /** Handler input; must survive msgpack (plain data). */
  readonly input: unknown;
  /**
   * Stable id of this request, unique per actor. Defaults to
   * `<inbox sequence>.<action index>` when omitted.
   */
  readonly effectId?: string;
}

/** Parameters of a `troupe.send` action: a message to another actor. */
export interface SendMessageParams {
  /** Target address `kind/id`. */
  readonly to: string;
  /** Message type, e.g. `"run.cancel"`; must be a type the target accepts. */
  readonly type: string;
  /** Message payload (plain data). */
  readonly payload: Record<string, unknown>;
}

/** Event delivered to the machine when an effect handler resolves. */
export interface EffectCompletedEvent {
  readonly type: "effect.completed";
  readonly effectId: string;
  readonly effect: string;
  readonly output: unknown;
}

/** Event delivered to the machine when an effect handler fails (after its retries). */
export interface EffectFailedEvent {
  readonly type: "effect.failed";
  readonly effectId: string;
  readonly effect: string;
  readonly error: { code: string; message: string; retryable: boolean };
}

/** Name of the action that requests an effect. */
export const EFFECT_ACTION = "troupe.effect";
/** Name of the action that sends a message to another actor. */
export const SEND_ACTION = "troupe.send";

/**
 * No-op implementations to spread into `setup({ actions })`.
 *
 * @example
 * setup({ actions: { ...hostActionImplementations } }).createMachine({
 *   entry: requestEffect({ effect: "model.call", input: { prompt: "hi" } }),
 * });
 */
export const hostActionImplementations = {
  [EFFECT_ACTION]: (_: unknown, _params: EffectRequestParams) => undefined,
  [SEND_ACTION]: (_: unknown, _params: SendMessageParams) => undefined,
} as const;

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
