import {
  type ActorAddress,
  DecodeError,
  type MessageEnvelope,
  type MessageSchemas,
  type PriorityClass,
  type TraceCarrier,
  PayloadTooLargeError,
  TroupeError,
  decodeMessage,
  toWireError,
  formatAddress,
  hostMessageSchemas,
} from "@troupe/protocol";
import { isDeepStrictEqual } from "node:util";
import { createActor, type AnyMachineSnapshot, type EventObject } from "xstate";
import type { UnknownMachineVersionError } from "../errors/unknown-machine-version-error.js";
import { UnsupportedMachineActionError } from "../errors/unsupported-machine-action-error.js";
import type { ActorKindDefinition } from "../registry/actor-kind.js";
import { CHILD_ACTOR_REASON } from "../registry/machine-action-support.js";
import type { ActorRecord, OutboxItem, PendingEffect } from "./actor-record.js";
import { deadLetterItems } from "./dead-letter-items.js";
import { interpretActions, isEventOnlyAction, type MachineAction } from "./interpret-actions.js";
import { persistedSnapshotOf, pureInitialTransition, pureTransition } from "./pure-transition.js";
import { readStoredState } from "./read-stored-state.js";

/** One message read from the inbox stream. */
export interface InboxMessage {
  /** Inbox stream sequence. */
  readonly seq: number;
  readonly subject: string;
  readonly data: Uint8Array;
  /** `Content-Type` header, when the publisher set one. */
  readonly contentType: string | undefined;
  /** Time the stream stored the message, Unix ms (deterministic "now"). */
  readonly timestampMs: number;
  /**
   * Trace context of the host's span for this step (docs/decisions/0036), stamped on the
   * outbox items and the effects the step produces. Absent when tracing is off.
   */
  readonly trace?: TraceCarrier | undefined;
  /**
   * Scheduling class of the message (its `Troupe-Priority` header,
   * docs/decisions/0057), stamped on the outbox items and effects the step
   * produces that name none themselves. Absent = `default`. Not compared by replay.
   */
  readonly priority?: PriorityClass | undefined;
}

/** Why a message did not change the snapshot. */
export type SkipReason = "already_reflected" | "stale_timer" | "stale_effect" | "early_timer";

/** Outcome of {@link processMessage}. */
export type StepResult =
  | {
      readonly outcome: "skipped";
      readonly reason: SkipReason;
      /**
       * `early_timer` (docs/decisions/0050): the timer fired before
       * its deadline by stream time (the timer store's clock is ahead of the
       * stream's). Nothing changed; the host puts it back into the timer
       * set due at `rearmAtMs` (by the timer store's clock: `earlyByMs` later
       * than it was due).
       */
      readonly early?: {
        readonly timerId: string;
        readonly deadlineMs: number;
        readonly earlyByMs: number;
        readonly rearmAtMs: number;
      };
    }
  | {
      /**
       * The stored snapshot was written by a machine version this host cannot
       * read (the kind runs another version and has no `migrate` hook, or the
       * hook threw): nothing to write, publish or start, and the message must
       * NOT be acked nor dead-lettered — it waits in the inbox for a host that
       * reads the snapshot (docs/decisions/0022).
       */
      readonly outcome: "refused";
      readonly error: UnknownMachineVersionError;
    }
  | {
      /**
       * The actor has no record and the message did not create it: the machine
       * stayed in its initial state and asked only for events (a verdict on a
       * command that addresses nothing). Nothing is stored; publish
       * `outbox` (those events, transient: `meta.seq` 0, ids derived from the
       * inbox sequence so a redelivery is deduplicated), then ack.
       */
      readonly outcome: "not_created";
      readonly outbox: readonly OutboxItem[];
      /** Set when the message was rejected (its dead letter is in `outbox`). */
      readonly rejection?: TroupeError | undefined;
    }
  | {
      readonly outcome: "committed";
      /** The next generation to write (compare-and-set on `record.generation - 1`). */
      readonly record: ActorRecord;
      /** Effects to start once the write is committed. */
      readonly effectsStarted: readonly PendingEffect[];
      /** Running effects to abort (still pending until their result arrives). */
      readonly effectsCancelled: readonly string[];
      /** Set when the message was rejected (dead-lettered; machine state untouched). */
      readonly rejection: TroupeError | undefined;
      /**
       * Set when an `effect.completed` could not be applied (the machine threw,
       * or the outbox it asked for was too large): the machine took
       * `effect.failed` with this error instead, and the outbox also carries the
       * result's dead letter and `message.rejected` event.
       */
      readonly effectFailedBy?: TroupeError | undefined;
      /**
       * The live xstate snapshot matching `record.state` (undefined after a
       * rejection): pass it back as `StepOptions.live` with the next message to
       * skip restoring the persisted form.
       */
      readonly live: LiveState | undefined;
    };

/** A live xstate snapshot and the generation whose `state` it equals. */
export interface LiveState {
  readonly generation: number;
  readonly snapshot: unknown;
}

/** Fixed inputs of the step for one actor. */
export interface StepOptions {
  readonly definition: ActorKindDefinition;
  readonly address: ActorAddress;
  /**
   * The live snapshot of `record` kept by the caller (an optimization: when its
   * generation matches the record's, the persisted state is not restored again).
   */
  readonly live?: LiveState | undefined;
  /** Maximum message size in bytes (default: the protocol's 1 MiB). */
  readonly maxPayloadBytes?: number;
}

/**
 * The core of the actor host, free of IO: stored snapshot + one inbox message →
 * next snapshot, outbox, effects and timer changes (docs/design.md,
 * "Processing one message"). The live host and `replayActor` both call it, so a
 * journal replays to exactly the stored snapshot.
 *
 * 1. A message whose sequence the snapshot already reflects is skipped.
 * 2. A message that does not decode or validate is rejected: the next generation
 *    keeps the machine state, advances the inbox sequence and carries a dead letter
 *    and a `message.rejected` event in its outbox (for an actor with no record:
 *    `not_created`, the two published without a record, the event transient).
 * 3. Timer and effect results that no longer match a pending timer/effect are
 *    skipped (a late duplicate).
 * 4. Otherwise the machine takes the pure transition and its actions become data.
 * 5. For an actor with no record, a transition that leaves the machine in its
 *    initial state and asks for nothing but events creates nothing
 *    (`not_created`): its events are published as transient events and no
 *    record is written, so a message that addresses nothing leaves no key
 *    behind (docs/decisions/0013).
 *
 * A snapshot written by another machine version is migrated with the kind's
 * `migrate` hook. Without a hook, or when the hook throws, the step `refused`s
 * (before decoding: a message only the newer version understands is not
 * dead-lettered either) with `UnknownMachineVersionError`: no dead letter, no
 * generation, the record untouched; the caller leaves the message in the inbox.
 * An exception thrown by the machine itself rejects the message with code
 * `internal` rather than crashing the host, and so does an outbox item (event,
 * message, transcript entry) over `maxPayloadBytes`, with code
 * `payload_too_large`. An `effect.completed` that fails either way is
 * dead-lettered too, but the machine is given `effect.failed` with that error
 * in its place, so the actor can fail what waited for the effect instead of
 * waiting forever. The step never throws: whatever goes wrong is contained to
 * this actor's message (dead letter and `message.rejected`). A transition that
 * asks for an action the host cannot carry out (one `enqueueActions` enqueued,
 * or a spawned child) rejects the message with code
 * `unsupported_machine_action`: nothing the machine asked for is dropped
 * silently.
 *
 * @param record - the latest stored generation, or undefined for a new actor.
 * @param message - the inbox message.
 * @param options - kind definition and address.
 * @returns what to write, publish and start.
 */
export function processMessage(
  record: ActorRecord | undefined,
  message: InboxMessage,
  options: StepOptions,
): StepResult {
  try {
    return step(record, message, options);
  } catch (error) {
    // A pure step that threw would throw again on every redelivery: reject the
    // message so it is dead-lettered once instead of blocking the actor forever.
    return reject(record, message, options, asTroupeError(error, "the step failed"));
  }
}

function step(
  record: ActorRecord | undefined,
  message: InboxMessage,
  options: StepOptions,
): StepResult {
  if (record !== undefined && message.seq <= record.inboxSeq) {
    return { outcome: "skipped", reason: "already_reflected" };
  }
  // Before anything else reads the message: a host that cannot read the
  // snapshot must not judge the message either.
  const stored = readStoredState(record, options.definition);
  if (!stored.readable) return { outcome: "refused", error: stored.error };
  const { definition, address } = options;
  const actor = formatAddress(address);
  let envelope: MessageEnvelope;
  try {
    envelope = decodeMessage(message.data, {
      contentType: message.contentType,
      subject: message.subject,
      schemas: acceptedSchemas(definition),
      ...(options.maxPayloadBytes === undefined
        ? {}
        : { maxPayloadBytes: options.maxPayloadBytes }),
      defaults: { id: `${actor}:in:${message.seq}`, timestampMs: message.timestampMs },
    });
  } catch (error) {
    if (DecodeError.isInstance(error) || PayloadTooLargeError.isInstance(error)) {
      return reject(record, message, options, error);
    }
    throw error;
  }
  try {
    return transitionMachine(record, message, envelope, options, stored.state);
  } catch (error) {
    const rejection = asTroupeError(error, `the machine failed on ${envelope.type}`);
    if (envelope.type === "effect.completed") {
      const asFailure = failEffectInstead(record, message, envelope, options, rejection, stored);
      if (asFailure !== undefined) return asFailure;
    }
    return reject(withoutAnswered(record, envelope), message, options, rejection, envelope);
  }
}

/**
 * Gives the machine `effect.failed` carrying `error` for an `effect.completed` it
 * could not take; undefined when that fails too (the caller then rejects).
 */
function failEffectInstead(
  record: ActorRecord | undefined,
  message: InboxMessage,
  envelope: MessageEnvelope,
  options: StepOptions,
  error: TroupeError,
  stored: { readonly state: unknown },
): StepResult | undefined {
  const { effectId } = envelope.payload as { effectId: string };
  const failed: MessageEnvelope = {
    ...envelope,
    type: "effect.failed",
    payload: { effectId, error: toWireError(error) },
  };
  let result: StepResult;
  try {
    result = transitionMachine(record, message, failed, options, stored.state);
  } catch {
    return undefined;
  }
  if (result.outcome !== "committed") return result;
  // The result itself is still dead-lettered, with a `message.rejected` event.
  const eventSeq = result.record.eventSeq + 1;
  const deadLetter = withTrace(
    deadLetterItems({
      address: options.address,
      message,
      error,
      eventSeq,
      envelope: { id: envelope.id, type: envelope.type },
    }),
    message.trace,
  );
  return {
    ...result,
    record: { ...result.record, eventSeq, outbox: [...result.record.outbox, ...deadLetter] },
    effectFailedBy: error,
  };
}

/** `error` as a TroupeError (code `internal` for anything else, message capped). */
function asTroupeError(error: unknown, what: string): TroupeError {
  let reason: string;
  try {
    if (TroupeError.isInstance(error)) return error;
    reason = String(error);
  } catch {
    // A thrown value that cannot even be inspected (a hostile proxy).
    reason = "a value that cannot be inspected";
  }
  return new TroupeError("internal", `${what}: ${reason.slice(0, 1000)}`, { cause: error });
}

const schemasByDefinition = new WeakMap<ActorKindDefinition, MessageSchemas>();

/** The kind's message schemas plus the host's own messages (cached per definition). */
function acceptedSchemas(definition: ActorKindDefinition): MessageSchemas {
  let schemas = schemasByDefinition.get(definition);
  if (schemas === undefined) {
    schemas = { ...definition.messageSchemas, ...hostMessageSchemas };
    schemasByDefinition.set(definition, schemas);
  }
  return schemas;
}

/**
 * The record without the effect or timer a host message answered: a result or
 * firing the machine could not take is still consumed, so the effect is not
 * re-run forever and the timer is not left pending after it fired.
 */
function withoutAnswered(
  record: ActorRecord | undefined,
  envelope: MessageEnvelope,
): ActorRecord | undefined {
  if (record === undefined) return undefined;
  const payload = envelope.payload as { effectId?: string; timerId?: string; deadlineMs?: number };
  if (envelope.type === "effect.completed" || envelope.type === "effect.failed") {
    return {
      ...record,
      effects: record.effects.filter((effect) => effect.effectId !== payload.effectId),
    };
  }
  if (envelope.type === "timer.fired") {
    return {
      ...record,
      timers: record.timers.filter(
        (timer) => !(timer.timerId === payload.timerId && timer.deadlineMs === payload.deadlineMs),
      ),
    };
  }
  return record;
}

function transitionMachine(
  record: ActorRecord | undefined,
  message: InboxMessage,
  envelope: MessageEnvelope,
  options: StepOptions,
  storedState: unknown,
): StepResult {
  const { definition, address } = options;
  let effects = record?.effects ?? [];
  let timers = record?.timers ?? [];
  let event: EventObject & Record<string, unknown>;
  if (envelope.type === "timer.fired") {
    const { timerId, deadlineMs, advancedMs } = envelope.payload as {
      timerId: string;
      deadlineMs: number;
      advancedMs?: number;
    };
    const timer = timers.find((t) => t.timerId === timerId && t.deadlineMs === deadlineMs);
    if (timer === undefined) return { outcome: "skipped", reason: "stale_timer" };
    // One clock per deadline: a timer's deadline is stream time, so
    // it is due only once stream time reaches it, whatever the timer store's
    // clock said (a test clock's advance counts as time passed).
    const earlyByMs = timer.deadlineMs - (message.timestampMs + (advancedMs ?? 0));
    if (earlyByMs > 0) {
      return {
        outcome: "skipped",
        reason: "early_timer",
        early: {
          timerId,
          deadlineMs: timer.deadlineMs,
          earlyByMs,
          rearmAtMs: timer.deadlineMs - (advancedMs ?? 0) + earlyByMs,
        },
      };
    }
    timers = timers.filter((t) => t !== timer);
    event = timer.event;
  } else if (envelope.type === "effect.completed" || envelope.type === "effect.failed") {
    const payload = envelope.payload as { effectId: string };
    const pending = effects.find((e) => e.effectId === payload.effectId);
    if (pending === undefined) return { outcome: "skipped", reason: "stale_effect" };
    effects = effects.filter((e) => e !== pending);
    event = { ...payload, type: envelope.type, effect: pending.effect };
  } else {
    event = definition.toEvent
      ? definition.toEvent(envelope)
      : {
          ...(envelope.payload as Record<string, unknown>),
          type: envelope.type,
          messageId: envelope.id,
          timestampMs: envelope.meta.timestampMs,
        };
  }

  if (definition.withStreamTime === true) event = { ...event, streamTimeMs: message.timestampMs };
  const machine = definition.machine;
  const actions: MachineAction[] = [];
  let snapshot: AnyMachineSnapshot;
  if (record === undefined || record.state === undefined) {
    const input = definition.input ? definition.input(address) : { address };
    const [initial, initialActions] = pureInitialTransition(machine, input);
    snapshot = initial;
    actions.push(...initialActions);
  } else {
    const live = options.live;
    snapshot =
      live !== undefined &&
      live.generation === record.generation &&
      record.machineVersion === definition.version
        ? (live.snapshot as AnyMachineSnapshot)
        : (createActor(machine, {
            snapshot: storedState as never,
          }).getSnapshot() as AnyMachineSnapshot);
  }
  const [next, transitionActions] = pureTransition(machine, snapshot, event);
  actions.push(...transitionActions);
  const persisted = persistedSnapshotOf(machine, next);

  const context = (next as { context?: unknown }).context;
  const notCreated =
    (record === undefined || record.state === undefined) &&
    actions.every(isEventOnlyAction) &&
    isDeepStrictEqual(persisted, persistedSnapshotOf(machine, snapshot));
  const interpreted = interpretActions(actions, {
    address,
    eventAddress: definition.eventAddress
      ? definition.eventAddress(address, context, envelope)
      : address,
    inboxSeq: message.seq,
    nowMs: message.timestampMs,
    causationId: envelope.id,
    correlationId: envelope.meta.correlationId,
    eventSeq: record?.eventSeq ?? 0,
    maxPayloadBytes: options.maxPayloadBytes,
    ...(notCreated && record === undefined ? { transientEvents: true } : {}),
  });
  // The step's span context on everything it produced: earlier
  // pending effects keep the trace of the step that requested them.
  // Their scheduling class: their own, else the message's (docs/decisions/0057).
  const outbox = withPriority(withTrace(interpreted.outbox, message.trace), message.priority);
  const started = withPriority(withTrace(interpreted.effects, message.trace), message.priority);
  if (notCreated && record === undefined) {
    return { outcome: "not_created", outbox };
  }
  // `spawn` inside `assign` returns no action (an enqueued `spawnChild` was
  // refused above): such a child shows only in the next snapshot.
  const [child] = Object.keys((next as { children?: Record<string, unknown> }).children ?? {});
  if (child !== undefined) {
    throw new UnsupportedMachineActionError(
      definition.kind,
      undefined,
      `a child actor "${child}" (spawned or invoked)`,
      CHILD_ACTOR_REASON,
    );
  }
  const cancelled = new Set(interpreted.timersCancelled);
  const armedIds = new Set(interpreted.timersArmed.map((t) => t.timerId));
  const nextTimers = [
    ...timers.filter((t) => !cancelled.has(t.timerId) && !armedIds.has(t.timerId)),
    ...interpreted.timersArmed.filter((t) => !cancelled.has(t.timerId)),
  ];
  const nextRecord: ActorRecord = {
    address: formatAddress(address),
    generation: (record?.generation ?? 0) + 1,
    inboxSeq: message.seq,
    machineVersion: definition.version,
    state: persisted,
    eventSeq: interpreted.eventSeq,
    effects: [...effects, ...started].map((effect) =>
      interpreted.effectsCancelled.includes(effect.effectId)
        ? { ...effect, cancelled: true as const }
        : effect,
    ),
    timers: nextTimers,
    outbox,
  };
  // Timers armed and cancelled are not listed here: the snapshot store diffs
  // `record.timers` against the previous generation when it commits.
  return {
    outcome: "committed",
    record: nextRecord,
    effectsStarted: started,
    effectsCancelled: interpreted.effectsCancelled,
    rejection: undefined,
    live: { generation: nextRecord.generation, snapshot: next },
  };
}

function reject(
  record: ActorRecord | undefined,
  message: InboxMessage,
  options: StepOptions,
  error: TroupeError,
  envelope?: MessageEnvelope,
): StepResult {
  const actor = formatAddress(options.address);
  const eventSeq = (record?.eventSeq ?? 0) + 1;
  const outbox: OutboxItem[] = withTrace(
    deadLetterItems({
      address: options.address,
      message,
      error,
      eventSeq,
      ...(envelope === undefined ? {} : { envelope: { id: envelope.id, type: envelope.type } }),
      ...(record === undefined ? { transient: true } : {}),
    }),
    message.trace,
  );
  // A message refused by an actor that does not exist creates nothing either:
  // its dead letter and `message.rejected` are all there is.
  if (record === undefined) return { outcome: "not_created", outbox, rejection: error };
  const base: ActorRecord = record ?? {
    address: actor,
    generation: 0,
    inboxSeq: 0,
    machineVersion: options.definition.version,
    state: undefined,
    eventSeq: 0,
    effects: [],
    timers: [],
    outbox: [],
  };
  return {
    outcome: "committed",
    record: { ...base, generation: base.generation + 1, inboxSeq: message.seq, eventSeq, outbox },
    effectsStarted: [],
    effectsCancelled: [],
    rejection: error,
    live: undefined,
  };
}

/**
 * `items` with `trace` set on each (docs/decisions/0036), or `items` itself when the
 * message carries no trace context (tracing off: records stay as before).
 */
function withTrace<T extends OutboxItem | PendingEffect>(
  items: T[],
  trace: TraceCarrier | undefined,
): T[] {
  return trace === undefined ? items : items.map((item) => ({ ...item, trace }));
}

/**
 * `items` with `priority` set on each that names none (docs/decisions/0057), or
 * `items` itself for a `default` message (records stay as before).
 */
function withPriority<T extends OutboxItem | PendingEffect>(
  items: T[],
  priority: PriorityClass | undefined,
): T[] {
  if (priority === undefined || priority === "default") return items;
  return items.map((item) => (item.priority === undefined ? { ...item, priority } : item));
}
