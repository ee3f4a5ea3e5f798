import {
  type Clock,
  systemClock,
  decodeActorRecord,
  type ActorRecord,
} from "@troupe/step/internal";
import {
  confirmStoredActorValue,
  decodeStoredActorValue,
  encodeStoredActorValue,
  storedRecordBytes,
} from "./stored-actor-value.js";
import type { InMemoryLeaseStore } from "./in-memory-lease-store.js";
import type {
  CommitInput,
  CommitResult,
  LeaseGrant,
  WatermarkOutcome,
  DueTimer,
  SnapshotStore,
  StoredRecord,
} from "./snapshot-store.js";
import { parseTimerMember, timerChanges, timerMember } from "./timer-member.js";

/** Options of {@link InMemorySnapshotStore}. */
export interface InMemorySnapshotStoreOptions {
  /**
   * The leases that fence writes: a commit or watermark is accepted only with the
   * owner and token of the lease held on the shard now (as the Redis scripts read
   * the lease hash), and each commit is counted on the grant (`writes`).
   */
  readonly leases: Pick<InMemoryLeaseStore, "currentGrant" | "countWrite">;
  /** Decides which durable timers are due; default {@link systemClock}. */
  readonly clock?: Clock;
}

interface StoredGeneration {
  readonly generation: number;
  /** The bytes `RedisSnapshotStore` keeps (see stored-actor-value.ts). */
  value: Uint8Array;
}

interface KeptGenerations {
  /** Record bytes, newest first. */
  readonly records: Uint8Array[];
  /** When they are forgotten (Unix ms by the store's clock; Infinity: never). */
  readonly expiresAtMs: number;
}

/**
 * A {@link SnapshotStore} in process memory, for unit tests and single-process
 * runs: the same answers as `RedisSnapshotStore` (it passes the same contract
 * suite, `snapshotStoreContractCases`). Records are stored msgpack-encoded, so
 * a loaded record is a copy, exactly as read back from Redis. Timers fall due by
 * the injected clock (Redis uses its server clock). Nothing survives the process.
 *
 * @example
 * ```ts
 * const leases = new InMemoryLeaseStore();
 * const snapshots = new InMemorySnapshotStore({ leases });
 * const token = (await leases.acquire(0, "host-a", 2_000))!;
 * await snapshots.commit({ shard: 0, token, previous: undefined, next, keepGenerations: 3 }); // "committed"
 * ```
 */
export class InMemorySnapshotStore implements SnapshotStore {
  readonly #actors = new Map<string, StoredGeneration>();
  /** Earlier generations per actor, newest first. */
  readonly #history = new Map<string, KeptGenerations>();
  /** Per shard: timer member → deadline (Unix ms). */
  readonly #timers = new Map<number, Map<string, number>>();
  readonly #dirty = new Map<number, Set<string>>();
  readonly #watermarks = new Map<number, number>();
  readonly #leases: Pick<InMemoryLeaseStore, "currentGrant" | "countWrite">;
  readonly #clock: Clock;

  /** @param options - see {@link InMemorySnapshotStoreOptions}. */
  constructor(options: InMemorySnapshotStoreOptions) {
    this.#leases = options.leases;
    this.#clock = options.clock ?? systemClock;
  }

  /** See {@link SnapshotStore.load}. */
  load(address: string): Promise<StoredRecord | undefined> {
    const stored = this.#actors.get(address);
    return Promise.resolve(
      stored === undefined
        ? undefined
        : (({ record, confirmed }) => ({ record, outboxConfirmed: confirmed }))(
            decodeStoredActorValue(stored.value),
          ),
    );
  }

  /** See {@link SnapshotStore.history}. */
  history(address: string): Promise<ActorRecord[]> {
    const kept = this.#history.get(address);
    if (kept === undefined || kept.expiresAtMs <= this.#clock.now()) return Promise.resolve([]);
    return Promise.resolve(kept.records.map((data) => decodeActorRecord(data)));
  }

  /** See {@link SnapshotStore.commit}. */
  commit(input: CommitInput): Promise<CommitResult> {
    const { shard, previous, next, keepGenerations, historyRetentionMs = 0 } = input;
    const grant = this.#grantCheck(shard, input);
    if (grant !== "held") return Promise.resolve({ outcome: grant });
    const stored = this.#actors.get(next.address);
    if ((stored?.generation ?? 0) !== (previous?.generation ?? 0)) {
      return Promise.resolve({ outcome: "conflict" });
    }
    if (stored !== undefined && keepGenerations > 0) {
      const now = this.#clock.now();
      // An expired history is gone, as a Redis key past its TTL.
      const kept = this.#history.get(next.address);
      const alive = kept !== undefined && kept.expiresAtMs > now ? kept : undefined;
      this.#history.set(next.address, {
        records: [storedRecordBytes(stored.value), ...(alive?.records ?? [])].slice(
          0,
          keepGenerations,
        ),
        expiresAtMs:
          historyRetentionMs > 0
            ? now + historyRetentionMs
            : (alive?.expiresAtMs ?? Number.POSITIVE_INFINITY),
      });
    }
    this.#actors.set(next.address, {
      generation: next.generation,
      value: encodeStoredActorValue(next),
    });
    const dirty = this.#dirtySet(shard);
    if (next.effects.length > 0 || next.outbox.length > 0) dirty.add(next.address);
    else dirty.delete(next.address);
    const timers = this.#timerSet(shard);
    const { removed, added } = timerChanges(previous, next);
    for (const member of removed) timers.delete(member);
    for (const { member, deadlineMs } of added) timers.set(member, deadlineMs);
    return Promise.resolve({ outcome: "committed", writes: this.#leases.countWrite(shard) });
  }

  /** See {@link SnapshotStore.confirmOutbox}. */
  confirmOutbox(shard: number, record: ActorRecord): Promise<void> {
    const stored = this.#actors.get(record.address);
    if (stored === undefined || stored.generation !== record.generation) return Promise.resolve();
    stored.value = confirmStoredActorValue(stored.value);
    if (record.effects.length === 0) this.#dirtySet(shard).delete(record.address);
    return Promise.resolve();
  }

  /** See {@link SnapshotStore.dirtyActors}. */
  dirtyActors(shard: number): Promise<string[]> {
    return Promise.resolve([...(this.#dirty.get(shard) ?? [])]);
  }

  /** See {@link SnapshotStore.dueTimers}; "now" is this store's clock. */
  dueTimers(shards: readonly number[], limit: number, aheadMs = 0): Promise<DueTimer[]> {
    const now = this.#clock.now() + aheadMs;
    return Promise.resolve(
      shards.flatMap((shard) =>
        [...(this.#timers.get(shard) ?? new Map<string, number>()).entries()]
          .filter(([, deadlineMs]) => deadlineMs <= now)
          // Redis orders a sorted set by score, then by member bytes.
          .sort(([a, aMs], [b, bMs]) => aMs - bMs || (a < b ? -1 : a > b ? 1 : 0))
          .slice(0, limit)
          .map(([member, dueAtMs]) => ({ ...parseTimerMember(shard, member), dueAtMs })),
      ),
    );
  }

  /** See {@link SnapshotStore.rearmTimer}. */
  rearmTimer(due: DueTimer, dueAtMs: number): Promise<void> {
    let timers = this.#timers.get(due.shard);
    if (timers === undefined) {
      timers = new Map();
      this.#timers.set(due.shard, timers);
    }
    timers.set(timerMember(due.address, due.timer), dueAtMs);
    return Promise.resolve();
  }

  /** See {@link SnapshotStore.removeTimers}. */
  removeTimers(timers: readonly DueTimer[]): Promise<void> {
    for (const due of timers) {
      const shard = this.#timers.get(due.shard);
      const member = timerMember(due.address, due.timer);
      // Only while it still has the score it fired with: one re-armed since stays.
      if (due.dueAtMs === undefined || shard?.get(member) === due.dueAtMs) shard?.delete(member);
    }
    return Promise.resolve();
  }

  /** See {@link SnapshotStore.watermark}. */
  watermark(shard: number): Promise<number | undefined> {
    return Promise.resolve(this.#watermarks.get(shard));
  }

  /** See {@link SnapshotStore.saveWatermark}. */
  saveWatermark(shard: number, lease: LeaseGrant, seq: number): Promise<WatermarkOutcome> {
    const grant = this.#grantCheck(shard, lease);
    if (grant !== "held") return Promise.resolve(grant);
    this.#watermarks.set(shard, seq);
    return Promise.resolve("saved");
  }

  /** Whether `lease` is the shard's grant now and counts at least its floor of commits. */
  #grantCheck(shard: number, lease: LeaseGrant): "held" | "fenced" | "writes_lost" {
    const current = this.#leases.currentGrant(shard);
    if (current === undefined || current.owner !== lease.owner || current.token !== lease.token) {
      return "fenced";
    }
    return current.writes < (lease.writesFloor ?? 0) ? "writes_lost" : "held";
  }

  #dirtySet(shard: number): Set<string> {
    let dirty = this.#dirty.get(shard);
    if (dirty === undefined) this.#dirty.set(shard, (dirty = new Set<string>()));
    return dirty;
  }

  #timerSet(shard: number): Map<string, number> {
    let timers = this.#timers.get(shard);
    if (timers === undefined) this.#timers.set(shard, (timers = new Map<string, number>()));
    return timers;
  }
}
