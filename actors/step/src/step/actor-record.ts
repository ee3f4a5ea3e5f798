import type { PriorityClass, TraceCarrier } from "@troupe/protocol";
import { Packr } from "msgpackr";

/**
 * The stored state of one actor: one snapshot generation.
 *
 * Written by the host as generation n+1 with a compare-and-set on generation n and
 * the shard's fencing token (see `RedisSnapshotStore`). Everything the host must
 * redo after a crash is in here: the effects still running, the timers still
 * armed, and the outbound messages and events of the latest transition.
 */
export interface ActorRecord {
  /** `kind/id`. */
  readonly address: string;
  /** Snapshot generation; 1 for the first write. */
  readonly generation: number;
  /** Highest inbox stream sequence this snapshot reflects. */
  readonly inboxSeq: number;
  /** Machine version that wrote `state`. */
  readonly machineVersion: string;
  /** The xstate persisted snapshot (plain data). */
  readonly state: unknown;
  /** Sequence of the last event published for this actor (gapless, from 1). */
  readonly eventSeq: number;
  /** Effects requested and not yet answered. */
  readonly effects: readonly PendingEffect[];
  /** Durable timers armed and not yet fired or cancelled. */
  readonly timers: readonly PendingTimer[];
  /** Messages and events of the transition that produced this generation. */
  readonly outbox: readonly OutboxItem[];
}

/** An effect requested by the machine and not yet answered. */
export interface PendingEffect {
  readonly effectId: string;
  readonly effect: string;
  readonly input: unknown;
  /**
   * Set once the machine asked to abort it (`troupe.cancelEffect`): the effect
   * stays pending until its (partial) result arrives, but is never started again;
   * after a crash it is answered at once with `effect.failed` code `cancelled`.
   */
  readonly cancelled?: true;
  /**
   * Trace context of the step that requested the effect (docs/decisions/0036): the
   * effect's span is its child on whichever host runs it, also after a crash.
   * Absent when tracing is off. Not compared by replay.
   */
  readonly trace?: TraceCarrier;
  /**
   * Scheduling class (docs/decisions/0057): the host runs the effect under it
   * and publishes its result with it (`Troupe-Priority`). Absent = `default`.
   * Not compared by replay.
   */
  readonly priority?: PriorityClass;
}

/** A durable timer: `event` is delivered to the machine at `deadlineMs`. */
export interface PendingTimer {
  readonly timerId: string;
  /** Unix time in ms. */
  readonly deadlineMs: number;
  readonly event: { readonly type: string } & Record<string, unknown>;
}

/** One JetStream publish of the outbox, with its deterministic `Nats-Msg-Id`. */
export interface OutboxItem {
  readonly subject: string;
  readonly messageId: string;
  readonly contentType: string;
  readonly body: Uint8Array;
  /**
   * Published (and acked) before the other items of the outbox: transcript
   * entries, so that a message sent in the same transition never overtakes them.
   */
  readonly first?: true;
  /**
   * Trace context of the step that produced the item (docs/decisions/0036), published as
   * the `traceparent`/`tracestate` headers, also when a new owner republishes
   * the outbox after a crash. Absent when tracing is off.
   */
  readonly trace?: TraceCarrier;
  /**
   * Scheduling class (docs/decisions/0057), published as the `Troupe-Priority`
   * header: the receiving host orders the message by it. Absent = `default`
   * (no header). Not compared by replay.
   */
  readonly priority?: PriorityClass;
}

const packr = new Packr({ useRecords: false, moreTypes: false });

/**
 * Serializes a record for storage (msgpack).
 *
 * @param record - the record.
 * @returns msgpack bytes.
 */
export function encodeActorRecord(record: ActorRecord): Uint8Array {
  return packr.pack(record);
}

/**
 * Reads a stored record.
 *
 * @param bytes - msgpack bytes written by {@link encodeActorRecord}.
 * @returns the record.
 */
export function decodeActorRecord(bytes: Uint8Array): ActorRecord {
  return packr.unpack(bytes) as ActorRecord;
}
