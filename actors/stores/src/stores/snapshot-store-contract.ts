import assert from "node:assert/strict";
import {
  decodeActorRecord,
  encodeActorRecord,
  type ActorRecord,
  type PendingTimer,
} from "@troupe/step/internal";
import type { LeaseStore } from "./lease-store.js";
import type { DueTimer, SnapshotStore, CommitOutcome } from "./snapshot-store.js";

/** One case of the {@link SnapshotStore} contract: a name saying what it proves and the check. */
export interface SnapshotStoreContractCase {
  readonly name: string;
  /** Resolves when the store keeps the contract; rejects with an `AssertionError` otherwise. */
  readonly run: () => Promise<void>;
}

/** A snapshot store under test, with the lease store whose tokens fence it. */
export interface SnapshotStoreContractSubject {
  readonly snapshots: SnapshotStore;
  /**
   * The leases the snapshot store checks: the same Redis (and key prefix) for
   * `RedisSnapshotStore`, the `InMemoryLeaseStore` an `InMemorySnapshotStore`
   * was given.
   */
  readonly leases: LeaseStore;
  /** Lets `ms` pass on the lease store's clock (a real wait for Redis). */
  readonly elapse: (ms: number) => Promise<void>;
}

/** A deadline long past (Unix ms): due by any clock of this century. */
const PAST_MS = 1_000;
/** A deadline far ahead (Unix ms, the year 2223): never due in a test. */
const FUTURE_MS = 8_000_000_000_000;
const TTL_MS = 60_000;

/**
 * The shared contract suite of {@link SnapshotStore}, run against every
 * implementation (in memory as a unit test, on a real Redis as an integration
 * test): plain async checks with `node:assert`, so any test runner can register
 * them. Each case leases shards of its own (shards 0 to 63 in all) and writes
 * actors of its own; run each call of this function on empty stores (for Redis:
 * a fresh key prefix). The store's clock must read a time of this century
 * (timers due at {@link PAST_MS} are due, at {@link FUTURE_MS} are not).
 *
 * @param createSubject - makes the stores under test (may return the same ones each time).
 * @returns the cases, to register with the runner.
 * @example
 * ```ts
 * const leases = new InMemoryLeaseStore();
 * const snapshots = new InMemorySnapshotStore({ leases });
 * const elapse = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
 * for (const { name, run } of snapshotStoreContractCases(() => ({ snapshots, leases, elapse }))) it(name, run);
 * ```
 */
export function snapshotStoreContractCases(
  createSubject: () => SnapshotStoreContractSubject | Promise<SnapshotStoreContractSubject>,
): SnapshotStoreContractCase[] {
  let nextShard = 0;
  let nextActor = 0;
  /** A shard of its own, leased by `host-a`, with its token. */
  const leasedShard = async (leases: LeaseStore) => {
    assert.ok(nextShard < 64, "the contract ran out of shards");
    const shard = nextShard++;
    const token = await leases.acquire(shard, "host-a", TTL_MS);
    assert.ok(token !== undefined, `shard ${shard} is free at the start of a case`);
    return { shard, token, owner: "host-a" };
  };
  const freshActor = () => `counter/contract-${(nextActor += 1)}`;

  return [
    {
      name: "load gives undefined for an actor never written, then the committed generation with its outbox unconfirmed",
      run: async () => {
        const { snapshots, leases } = await createSubject();
        const { shard, token } = await leasedShard(leases);
        const actor = freshActor();
        assert.equal(await snapshots.load(actor), undefined);
        assert.deepEqual(await snapshots.history(actor), []);
        const first = record(actor, 1, { outbox: [outboxItem("a")], eventSeq: 1 });
        assert.equal(await commit(snapshots, { shard, token }, undefined, first), "committed");
        assert.deepEqual(await snapshots.load(actor), {
          record: roundTrip(first),
          outboxConfirmed: false,
        });
      },
    },
    {
      name: "commit is a compare-and-set on the generation: a writer holding an older generation gets conflict and changes nothing",
      run: async () => {
        const { snapshots, leases } = await createSubject();
        const lease = await leasedShard(leases);
        const actor = freshActor();
        const first = record(actor, 1);
        assert.equal(await commit(snapshots, lease, undefined, first), "committed");
        // A second "first write" (another activation that saw no snapshot) conflicts.
        assert.equal(await commit(snapshots, lease, undefined, record(actor, 1)), "conflict");
        const second = record(actor, 2);
        assert.equal(await commit(snapshots, lease, first, second), "committed");
        const stale = record(actor, 2, {
          state: { value: "stale" },
          timers: [timer("t", PAST_MS)],
        });
        assert.equal(await commit(snapshots, lease, first, stale), "conflict");
        assert.deepEqual((await snapshots.load(actor))?.record, roundTrip(second));
        assert.deepEqual(
          (await snapshots.history(actor)).map((kept) => kept.generation),
          [1],
        );
        assert.deepEqual(await snapshots.dueTimers([lease.shard], 10), []);
      },
    },
    {
      name: "a stale fencing token cannot commit: after the lease moved to another owner the old token is fenced and nothing changes",
      run: async () => {
        const { snapshots, leases } = await createSubject();
        const { shard, token: oldToken } = await leasedShard(leases);
        const actor = freshActor();
        const first = record(actor, 1);
        assert.equal(
          await commit(snapshots, { shard, token: oldToken }, undefined, first),
          "committed",
        );
        assert.equal(await leases.release(shard, "host-a", oldToken), true);
        const newToken = (await leases.acquire(shard, "host-b", TTL_MS))!;
        assert.ok(newToken > oldToken);
        const zombie = record(actor, 2, {
          effects: [{ effectId: "e1", effect: "double", input: 1 }],
          timers: [timer("t", PAST_MS)],
          outbox: [outboxItem("zombie")],
        });
        assert.equal(await commit(snapshots, { shard, token: oldToken }, first, zombie), "fenced");
        assert.deepEqual(await snapshots.load(actor), {
          record: roundTrip(first),
          outboxConfirmed: false,
        });
        assert.deepEqual(await snapshots.history(actor), []);
        assert.deepEqual(await snapshots.dirtyActors(shard), []);
        assert.deepEqual(await snapshots.dueTimers([shard], 10), []);
        // The fencing check comes before the generation check.
        assert.equal(
          await commit(snapshots, { shard, token: oldToken }, undefined, record(actor, 1)),
          "fenced",
        );
        assert.equal(
          await commit(snapshots, { shard, token: newToken, owner: "host-b" }, first, zombie),
          "committed",
        );
      },
    },
    {
      name: "a commit under an expired lease, a released one or a token never issued is fenced",
      run: async () => {
        const { snapshots, leases, elapse } = await createSubject();
        const { shard, token } = await leasedShard(leases);
        const actor = freshActor();
        assert.equal(
          await commit(snapshots, { shard, token: token + 1 }, undefined, record(actor, 1)),
          "fenced",
        );
        assert.equal(await leases.release(shard, "host-a", token), true);
        assert.equal(
          await commit(snapshots, { shard, token }, undefined, record(actor, 1)),
          "fenced",
        );
        const expiring = (await leases.acquire(shard, "host-a", 200))!;
        await elapse(400);
        assert.equal(
          await commit(snapshots, { shard, token: expiring }, undefined, record(actor, 1)),
          "fenced",
        );
        assert.equal(await snapshots.load(actor), undefined);
      },
    },
    {
      name: "history keeps keepGenerations earlier generations, newest first (none with keepGenerations 0)",
      run: async () => {
        const { snapshots, leases } = await createSubject();
        const lease = await leasedShard(leases);
        const [kept, none] = [freshActor(), freshActor()];
        let previous: ActorRecord | undefined;
        for (let generation = 1; generation <= 5; generation += 1) {
          const next = record(kept, generation);
          assert.equal(await commit(snapshots, lease, previous, next, 3), "committed");
          previous = next;
        }
        const history = await snapshots.history(kept);
        assert.deepEqual(
          history.map((entry) => entry.generation),
          [4, 3, 2],
        );
        assert.deepEqual(history[0], roundTrip(record(kept, 4)));
        assert.equal((await snapshots.load(kept))?.record.generation, 5);
        const first = record(none, 1);
        await commit(snapshots, lease, undefined, first, 0);
        await commit(snapshots, lease, first, record(none, 2), 0);
        assert.deepEqual(await snapshots.history(none), []);
      },
    },
    {
      name: "confirmOutbox marks the stored generation's outbox published; confirming another generation changes nothing",
      run: async () => {
        const { snapshots, leases } = await createSubject();
        const lease = await leasedShard(leases);
        const actor = freshActor();
        const first = record(actor, 1, { outbox: [outboxItem("one")] });
        const second = record(actor, 2, { outbox: [outboxItem("two")] });
        await commit(snapshots, lease, undefined, first);
        await commit(snapshots, lease, first, second);
        await snapshots.confirmOutbox(lease.shard, first);
        assert.equal((await snapshots.load(actor))?.outboxConfirmed, false);
        assert.deepEqual(await snapshots.dirtyActors(lease.shard), [actor]);
        await snapshots.confirmOutbox(lease.shard, second);
        // Confirmed: the published outbox is dropped from the stored generation.
        assert.deepEqual(await snapshots.load(actor), {
          record: roundTrip({ ...second, outbox: [] }),
          outboxConfirmed: true,
        });
        // Confirming it again changes nothing.
        await snapshots.confirmOutbox(lease.shard, second);
        assert.deepEqual(await snapshots.load(actor), {
          record: roundTrip({ ...second, outbox: [] }),
          outboxConfirmed: true,
        });
        // A new generation starts unconfirmed again.
        await commit(snapshots, lease, second, record(actor, 3, { outbox: [outboxItem("three")] }));
        assert.equal((await snapshots.load(actor))?.outboxConfirmed, false);
        // Confirming an actor never written is a no-op.
        await snapshots.confirmOutbox(lease.shard, record(freshActor(), 1));
      },
    },
    {
      name: "kept generations carry no outbox: the history entry of a generation committed with an outbox has outbox []",
      run: async () => {
        const { snapshots, leases } = await createSubject();
        const lease = await leasedShard(leases);
        const actor = freshActor();
        const first = record(actor, 1, { outbox: [outboxItem("a"), outboxItem("b")], eventSeq: 2 });
        const second = record(actor, 2, { outbox: [outboxItem("c")], eventSeq: 3 });
        await commit(snapshots, lease, undefined, first);
        await commit(snapshots, lease, first, second);
        assert.deepEqual(await snapshots.history(actor), [roundTrip({ ...first, outbox: [] })]);
        // The latest generation keeps its outbox until it is confirmed.
        assert.deepEqual(await snapshots.load(actor), {
          record: roundTrip(second),
          outboxConfirmed: false,
        });
      },
    },
    {
      name: "kept generations expire historyRetentionMs after the last commit that kept one; the latest generation stays",
      run: async () => {
        const { snapshots, leases, elapse } = await createSubject();
        const lease = await leasedShard(leases);
        const [expiring, lasting] = [freshActor(), freshActor()];
        const commitTwo = async (actor: string, historyRetentionMs: number | undefined) => {
          const first = record(actor, 1);
          const second = record(actor, 2);
          await snapshots.commit({
            ...lease,
            previous: undefined,
            next: first,
            keepGenerations: 3,
          });
          await snapshots.commit({
            ...lease,
            previous: first,
            next: second,
            keepGenerations: 3,
            ...(historyRetentionMs === undefined ? {} : { historyRetentionMs }),
          });
          return second;
        };
        const latest = await commitTwo(expiring, 300);
        await commitTwo(lasting, undefined);
        assert.deepEqual(
          (await snapshots.history(expiring)).map((kept) => kept.generation),
          [1],
        );
        await elapse(600);
        assert.deepEqual(await snapshots.history(expiring), []);
        assert.deepEqual((await snapshots.load(expiring))?.record, roundTrip(latest));
        assert.deepEqual(
          (await snapshots.history(lasting)).map((kept) => kept.generation),
          [1],
        );
        // The next commit starts a new history.
        await commit(snapshots, lease, latest, record(expiring, 3));
        assert.deepEqual(
          (await snapshots.history(expiring)).map((kept) => kept.generation),
          [2],
        );
      },
    },
    {
      name: "the dirty set of a shard holds exactly its actors with pending effects or an unconfirmed outbox",
      run: async () => {
        const { snapshots, leases } = await createSubject();
        const lease = await leasedShard(leases);
        const other = await leasedShard(leases);
        const [outboxOnly, withEffect, quiet] = [freshActor(), freshActor(), freshActor()];
        const effect = { effectId: "e1", effect: "double", input: { count: 1 } };
        const outboxRecord = record(outboxOnly, 1, { outbox: [outboxItem("x")] });
        const effectRecord = record(withEffect, 1, {
          effects: [effect],
          outbox: [outboxItem("y")],
        });
        const quietRecord = record(quiet, 1);
        await commit(snapshots, lease, undefined, outboxRecord);
        await commit(snapshots, lease, undefined, effectRecord);
        await commit(snapshots, lease, undefined, quietRecord);
        assert.deepEqual(
          sorted(await snapshots.dirtyActors(lease.shard)),
          sorted([outboxOnly, withEffect]),
        );
        assert.deepEqual(await snapshots.dirtyActors(other.shard), []);
        // Confirmed outbox and no effect: clean. Confirmed outbox, effect pending: still dirty.
        await snapshots.confirmOutbox(lease.shard, outboxRecord);
        await snapshots.confirmOutbox(lease.shard, effectRecord);
        assert.deepEqual(await snapshots.dirtyActors(lease.shard), [withEffect]);
        // The effect's result answered it: a generation with nothing pending is clean at once.
        await commit(snapshots, lease, effectRecord, record(withEffect, 2));
        assert.deepEqual(await snapshots.dirtyActors(lease.shard), []);
      },
    },
    {
      name: "durable timers: a commit adds its new timers and removes those gone; due ones are listed per shard up to the limit, in deadline order; removeTimers forgets them",
      run: async () => {
        const { snapshots, leases } = await createSubject();
        const lease = await leasedShard(leases);
        const other = await leasedShard(leases);
        const [actor, neighbour] = [freshActor(), freshActor()];
        const [early, late, future] = [
          timer("b", PAST_MS),
          timer("a", PAST_MS + 1),
          timer("c", FUTURE_MS),
        ];
        const first = record(actor, 1, { timers: [late, future, early] });
        await commit(snapshots, lease, undefined, first);
        await commit(
          snapshots,
          other,
          undefined,
          record(neighbour, 1, { timers: [timer("n", PAST_MS)] }),
        );
        const due = (address: string, shard: number, pending: PendingTimer): DueTimer => ({
          shard,
          address,
          timer: { timerId: pending.timerId, deadlineMs: pending.deadlineMs },
          dueAtMs: pending.deadlineMs,
        });
        assert.deepEqual(await snapshots.dueTimers([lease.shard], 10), [
          due(actor, lease.shard, early),
          due(actor, lease.shard, late),
        ]);
        assert.deepEqual(await snapshots.dueTimers([lease.shard, other.shard], 1), [
          due(actor, lease.shard, early),
          due(neighbour, other.shard, timer("n", PAST_MS)),
        ]);
        assert.deepEqual(await snapshots.dueTimers([], 10), []);
        // The next generation cancelled `early` and re-armed `late` with another deadline.
        const rearmed = timer("a", PAST_MS + 2);
        await commit(snapshots, lease, first, record(actor, 2, { timers: [rearmed, future] }));
        assert.deepEqual(await snapshots.dueTimers([lease.shard], 10), [
          due(actor, lease.shard, rearmed),
        ]);
        await snapshots.removeTimers([due(actor, lease.shard, rearmed)]);
        assert.deepEqual(await snapshots.dueTimers([lease.shard], 10), []);
        // A firing that came early by stream time is put back, due later under the
        // same member; far in the future it is due only looking ahead.
        await snapshots.rearmTimer(due(actor, lease.shard, rearmed), PAST_MS + 5);
        assert.deepEqual(await snapshots.dueTimers([lease.shard], 10), [
          { ...due(actor, lease.shard, rearmed), dueAtMs: PAST_MS + 5 },
        ]);
        await snapshots.rearmTimer(due(actor, lease.shard, rearmed), FUTURE_MS);
        assert.deepEqual(await snapshots.dueTimers([lease.shard], 10), []);
        // Equal scores are listed by member (`<deadline>|…`): the re-armed one first.
        assert.deepEqual(await snapshots.dueTimers([lease.shard], 10, FUTURE_MS), [
          { ...due(actor, lease.shard, rearmed), dueAtMs: FUTURE_MS },
          due(actor, lease.shard, future),
        ]);
        await snapshots.removeTimers([{ ...due(actor, lease.shard, rearmed), dueAtMs: FUTURE_MS }]);
        assert.deepEqual(await snapshots.dueTimers([lease.shard], 10, FUTURE_MS), [
          due(actor, lease.shard, future),
        ]);
        // The host forgets a fired timer after publishing its firing; when the
        // early firing was already processed and put the timer back, the
        // removal leaves the re-armed one (else the timer would be lost).
        await snapshots.rearmTimer(due(actor, lease.shard, rearmed), PAST_MS + 7);
        await snapshots.removeTimers([due(actor, lease.shard, rearmed)]);
        assert.deepEqual(await snapshots.dueTimers([lease.shard], 10), [
          { ...due(actor, lease.shard, rearmed), dueAtMs: PAST_MS + 7 },
        ]);
        await snapshots.removeTimers([
          { ...due(actor, lease.shard, rearmed), dueAtMs: PAST_MS + 7 },
        ]);
        assert.deepEqual(await snapshots.dueTimers([lease.shard], 10), []);
        assert.deepEqual(await snapshots.dueTimers([other.shard], 10), [
          due(neighbour, other.shard, timer("n", PAST_MS)),
        ]);
        await snapshots.removeTimers([]);
      },
    },
    {
      name: "the watermark is saved only under the shard's current lease token",
      run: async () => {
        const { snapshots, leases } = await createSubject();
        const { shard, token } = await leasedShard(leases);
        assert.equal(await snapshots.watermark(shard), undefined);
        const a = { owner: "host-a", token };
        assert.equal(await snapshots.saveWatermark(shard, a, 42), "saved");
        assert.equal(await snapshots.watermark(shard), 42);
        assert.equal(
          await snapshots.saveWatermark(shard, { ...a, token: token + 1 }, 99),
          "fenced",
        );
        assert.equal(await leases.release(shard, "host-a", token), true);
        const next = (await leases.acquire(shard, "host-b", TTL_MS))!;
        assert.equal(await snapshots.saveWatermark(shard, a, 77), "fenced");
        assert.equal(await snapshots.watermark(shard), 42);
        const b = { owner: "host-b", token: next };
        assert.equal(await snapshots.saveWatermark(shard, b, 50), "saved");
        assert.equal(await snapshots.watermark(shard), 50);
      },
    },
    {
      name: "a commit under the right token but another owner is fenced (a token can be issued twice after Redis lost writes)",
      run: async () => {
        const { snapshots, leases } = await createSubject();
        const { shard, token } = await leasedShard(leases);
        const actor = freshActor();
        assert.equal(
          await commit(snapshots, { shard, token, owner: "host-b" }, undefined, record(actor, 1)),
          "fenced",
        );
        assert.equal(await snapshots.saveWatermark(shard, { owner: "host-b", token }, 9), "fenced");
        assert.equal(await snapshots.load(actor), undefined);
        assert.equal(await snapshots.watermark(shard), undefined);
      },
    },
    {
      name: "each commit answers the grant's commit count; a writes floor above it (Redis lost commits) is writes_lost and writes nothing",
      run: async () => {
        const { snapshots, leases } = await createSubject();
        const lease = await leasedShard(leases);
        const actor = freshActor();
        const first = record(actor, 1);
        const second = record(actor, 2);
        const answered = await snapshots.commit({
          ...lease,
          previous: undefined,
          next: first,
          keepGenerations: 3,
        });
        assert.deepEqual(answered, { outcome: "committed", writes: 1 });
        const again = await snapshots.commit({
          ...lease,
          writesFloor: 1,
          previous: first,
          next: second,
          keepGenerations: 3,
        });
        assert.deepEqual(again, { outcome: "committed", writes: 2 });
        // The owner knows of 5 commits; the store holds 2: it lost 3.
        const third = record(actor, 3, { timers: [timer("t", PAST_MS)] });
        assert.equal(
          await commit(snapshots, { ...lease, writesFloor: 5 }, second, third),
          "writes_lost",
        );
        assert.equal(
          await snapshots.saveWatermark(lease.shard, { ...lease, writesFloor: 5 }, 30),
          "writes_lost",
        );
        assert.deepEqual((await snapshots.load(actor))?.record, roundTrip(second));
        assert.deepEqual(await snapshots.dueTimers([lease.shard], 10), []);
        assert.equal(await snapshots.watermark(lease.shard), undefined);
        // At the floor it goes on.
        assert.equal(
          await commit(snapshots, { ...lease, writesFloor: 2 }, second, third),
          "committed",
        );
      },
    },
  ];
}

function record(
  address: string,
  generation: number,
  fields: Partial<ActorRecord> = {},
): ActorRecord {
  return {
    address,
    generation,
    inboxSeq: generation * 10,
    machineVersion: "1",
    state: { status: "active", value: "counting", context: { count: generation } },
    eventSeq: 0,
    effects: [],
    timers: [],
    outbox: [],
    ...fields,
  };
}

function timer(timerId: string, deadlineMs: number): PendingTimer {
  return { timerId, deadlineMs, event: { type: "alarm", timerId } };
}

function outboxItem(text: string): ActorRecord["outbox"][number] {
  return {
    subject: `troupe.counter.contract.events.${text}`,
    messageId: `counter/contract:ev:${text}`,
    contentType: "application/json",
    body: new TextEncoder().encode(JSON.stringify({ text })),
  };
}

/** Commits under `lease` (owner `host-a` unless given) and answers the outcome. */
async function commit(
  snapshots: SnapshotStore,
  lease: { shard: number; token: number; owner?: string; writesFloor?: number },
  previous: ActorRecord | undefined,
  next: ActorRecord,
  keepGenerations = 3,
): Promise<CommitOutcome> {
  const result = await snapshots.commit({
    owner: "host-a",
    ...lease,
    previous,
    next,
    keepGenerations,
  });
  return result.outcome;
}

/** A record as a store gives it back (msgpack round trip: bodies come back as Buffers). */
function roundTrip(value: ActorRecord): ActorRecord {
  return decodeActorRecord(encodeActorRecord(value));
}

function sorted(values: readonly string[]): string[] {
  return [...values].sort();
}
