import type { ActorRecord } from "@troupe/runtime";
import { toJsonValue, type JsonValue } from "./to-json-value.js";

/** An effect the machine requested and that has no answer yet. */
export interface PendingEffectView {
  /** Stable id of the request, unique per actor. */
  readonly effectId: string;
  /** Effect name, e.g. `model.call`. */
  readonly effect: string;
  /** True once the machine asked to abort it (`troupe.cancelEffect`). */
  readonly cancelled: boolean;
}

/** A durable timer armed in a snapshot. */
export interface ArmedTimerView {
  readonly timerId: string;
  /** Type of the event the timer delivers, e.g. `run.timeout`. */
  readonly eventType: string;
  /** When it is due, Unix ms. */
  readonly deadlineMs: number;
  /** `deadlineMs` minus the Redis clock at inspection, in ms; negative when overdue. */
  readonly dueInMs: number;
}

/**
 * One stored snapshot generation, decoded into plain JSON.
 *
 * Shape: `{ generation, latest, machineVersion, stateValue, status, eventSeq,
 * inboxSeq, effects[], timers[], outboxItems, context }`.
 */
export interface SnapshotGenerationView {
  /** Generation number; 1 for the first write, +1 per committed transition. */
  readonly generation: number;
  /** True for the current generation, false for a kept earlier one. */
  readonly latest: boolean;
  /** Machine version that wrote the state; undefined when the record has none. */
  readonly machineVersion: string | undefined;
  /** xstate state value: a state name or a nested object of them. */
  readonly stateValue: JsonValue;
  /** xstate snapshot status: `active`, `done`, `error` or `stopped`; undefined if missing. */
  readonly status: string | undefined;
  /** Sequence of the last event published for this actor (gapless, from 1). */
  readonly eventSeq: number;
  /** Highest inbox stream sequence this generation reflects. */
  readonly inboxSeq: number;
  /** Effects requested and not yet answered. */
  readonly effects: readonly PendingEffectView[];
  /** Durable timers armed and not yet fired or cancelled, earliest first. */
  readonly timers: readonly ArmedTimerView[];
  /** Outbound messages and events of the transition that wrote this generation. */
  readonly outboxItems: number;
  /** The machine context (plain JSON; bytes as `{ bytes, base64 }`). */
  readonly context: JsonValue;
}

/**
 * Describes a stored {@link ActorRecord} for an admin view. Pure.
 *
 * @param record - a decoded record (latest or from the history list).
 * @param options - `latest`: whether it is the current generation;
 *   `observedAtMs`: the Redis clock at inspection (Unix ms), for `dueInMs`.
 * @returns the JSON-serializable view.
 */
export function snapshotGenerationView(
  record: ActorRecord,
  options: { readonly latest: boolean; readonly observedAtMs: number },
): SnapshotGenerationView {
  const state = (typeof record.state === "object" && record.state !== null ? record.state : {}) as {
    value?: unknown;
    status?: unknown;
    context?: unknown;
  };
  return {
    generation: record.generation,
    latest: options.latest,
    machineVersion:
      typeof record.machineVersion === "string" && record.machineVersion.length > 0
        ? record.machineVersion
        : undefined,
    stateValue: toJsonValue(state.value),
    status: typeof state.status === "string" ? state.status : undefined,
    eventSeq: record.eventSeq ?? 0,
    inboxSeq: record.inboxSeq ?? 0,
    effects: (record.effects ?? []).map((effect) => ({
      effectId: effect.effectId,
      effect: effect.effect,
      cancelled: effect.cancelled === true,
    })),
    timers: [...(record.timers ?? [])]
      .sort((a, b) => a.deadlineMs - b.deadlineMs)
      .map((timer) => ({
        timerId: timer.timerId,
        eventType: timer.event?.type ?? "?",
        deadlineMs: timer.deadlineMs,
        dueInMs: timer.deadlineMs - options.observedAtMs,
      })),
    outboxItems: (record.outbox ?? []).length,
    context: toJsonValue(state.context),
  };
}
