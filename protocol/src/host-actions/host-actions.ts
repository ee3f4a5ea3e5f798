import type { TranscriptEntry } from "../v1/transcript-entry.js";
import type { PriorityClass } from "../v1/priority-class.js";

/**
 * Action conventions between pure machines and the actor host.
 *
 * Machines never do IO. To ask the host for something, a machine executes one of
 * the named actions below; xstate's pure `transition()` returns them as action
 * objects (`{ type, params }`) and the host carries them out after the snapshot is
 * committed (see docs/design.md, "Effects"):
 *
 * - `troupe.effect` — run a registered effect handler; its result comes back into
 *   the actor's own inbox as an {@link EffectCompletedEvent} or
 *   {@link EffectFailedEvent}.
 * - `troupe.send` — publish a message to another actor's inbox
 *   (`troupe.<kind>.<id>.in`).
 * - `troupe.append` — append one entry to an append-only log kept outside the
 *   snapshot (the session transcript), published with the dedup id
 *   `<key>:<log>:<index>`.
 * - `troupe.cancelEffect` — abort a running effect; its handler then completes
 *   with whatever partial output it has (or fails), as usual.
 * - `emit(...)` (xstate's own) — publish an event on the actor's event subjects;
 *   the event's `type` is the event type and its other fields the payload.
 * - `troupe.emit` — the same with the payload given whole, for payloads that
 *   have a field named `type` themselves (`message.accepted`, …).
 * - `after` delays and `raise(..., { delay })` — become durable timers held by the
 *   host, fired into the inbox at their deadline.
 *
 * Spread {@link hostActionImplementations} into `setup({ actions })` so xstate
 * knows the action names; the implementations are no-ops by design. The action
 * objects themselves are made by the creators in `host-action-creators.ts`.
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
  /**
   * Scheduling class of the effect and of its result message (docs/decisions/0057);
   * absent = the class of the message being processed.
   */
  readonly priority?: PriorityClass;
}

/** Parameters of a `troupe.send` action: a message to another actor. */
export interface SendMessageParams {
  /** Target address `kind/id`. */
  readonly to: string;
  /** Message type, e.g. `"run.cancel"`; must be a type the target accepts. */
  readonly type: string;
  /** Message payload (plain data). */
  readonly payload: Record<string, unknown>;
  /**
   * Scheduling class of the message (its `Troupe-Priority` header,
   * docs/decisions/0057); absent = the class of the message being processed.
   */
  readonly priority?: PriorityClass;
}

/**
 * Parameters of a `troupe.emit` action: an event given as type and payload.
 * xstate's `emit({ type, ...payload })` cannot carry a payload field named
 * `type`; this form can.
 */
export interface EmitEventParams {
  /** Event type, e.g. `"message.accepted"`. */
  readonly type: string;
  /** Event payload (plain data), published as is. */
  readonly payload: Record<string, unknown>;
}

/** Names of the append-only logs a machine may append to. */
export type AppendLogName = "transcript";

/**
 * Parameters of a `troupe.append` action: one entry of an append-only log.
 *
 * The host appends `entry` at position `index` of log `log` for `key` and
 * publishes it with the dedup id `<key>:<log>:<index>`, so a re-published outbox
 * never appends twice. Indexes of one key start at 0 and have no gaps; the
 * machine that owns the key counts them.
 */
export interface AppendParams {
  /** Which log: `"transcript"` (entries are {@link TranscriptEntry}). */
  readonly log: AppendLogName;
  /** Whose log, e.g. the session id. */
  readonly key: string;
  /** Position of the entry, 0-based. */
  readonly index: number;
  readonly entry: TranscriptEntry;
}

/** Parameters of a `troupe.cancelEffect` action: which running effect to abort. */
export interface CancelEffectParams {
  /** The `effectId` of an earlier `troupe.effect` request of this actor. */
  readonly effectId: string;
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
  readonly error: {
    code: string;
    message: string;
    retryable: boolean;
    /** The `WireError`'s details, when the handler's error had any (e.g. a model's chain position). */
    details?: Record<string, unknown>;
  };
}

/** Name of the action that requests an effect. */
export const EFFECT_ACTION = "troupe.effect";
/** Name of the action that sends a message to another actor. */
export const SEND_ACTION = "troupe.send";
/** Name of the action that publishes an event given as type and payload. */
export const EMIT_ACTION = "troupe.emit";
/** Name of the action that appends an entry to an append-only log. */
export const APPEND_ACTION = "troupe.append";
/** Name of the action that aborts a running effect. */
export const CANCEL_EFFECT_ACTION = "troupe.cancelEffect";

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
  [EMIT_ACTION]: (_: unknown, _params: EmitEventParams) => undefined,
  [APPEND_ACTION]: (_: unknown, _params: AppendParams) => undefined,
  [CANCEL_EFFECT_ACTION]: (_: unknown, _params: CancelEffectParams) => undefined,
} as const;
