import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { RedisKeys } from "@troupe/protocol/internal";
import {
  RedisLeaseStore,
  RedisSnapshotStore,
  snapshotStoreContractCases,
  encodeActorRecord,
  type ActorRecord,
} from "@troupe/runtime/internal";
import { describe, expect, it } from "vitest";
import { useRedisSuite } from "../support/redis-suite.js";

// Each suite its own key prefix: the contract leases shards 0 to 63 of it.
const keys = new RedisKeys(`test-snapshots-${randomUUID()}`);

const client = useRedisSuite();

describe("RedisSnapshotStore keeps the SnapshotStore contract on a real Redis", () => {
  for (const { name, run } of snapshotStoreContractCases(() => ({
    snapshots: new RedisSnapshotStore(client(), keys),
    // The commit script reads the lease hash the RedisLeaseStore of the same prefix writes.
    leases: new RedisLeaseStore(client(), keys),
    elapse: (ms) => sleep(ms),
  }))) {
    it(name, run);
  }
});

describe("RedisSnapshotStore on a real Redis", () => {
  it("reads, confirms and converts an actor stored as a hash before issue #12", async () => {
    const layout = new RedisKeys(`test-snapshots-${randomUUID()}`);
    const snapshots = new RedisSnapshotStore(client(), layout);
    const token = (await new RedisLeaseStore(client(), layout).acquire(5, "host-a", 60_000))!;
    const old: ActorRecord = {
      address: "counter/legacy",
      generation: 7,
      inboxSeq: 40,
      machineVersion: "1",
      state: { value: "counting", context: { count: 3 } },
      eventSeq: 2,
      effects: [],
      timers: [],
      outbox: [
        {
          subject: "troupe.counter.legacy.events.x",
          messageId: "m",
          contentType: "c",
          body: new Uint8Array([1, 2]),
        },
      ],
    };
    // The layout before issue #12: a hash with gen, data (the whole record) and confirmed.
    await client().hset(layout.actor("counter/legacy"), {
      gen: "7",
      data: Buffer.from(encodeActorRecord(old)),
      confirmed: "0",
    });
    const loaded = await snapshots.load("counter/legacy");
    const plain = (record: ActorRecord | undefined) =>
      record && {
        ...record,
        outbox: record.outbox.map((item) => ({ ...item, body: [...item.body] })),
      };
    expect(loaded?.outboxConfirmed).toBe(false);
    expect(plain(loaded?.record)).toEqual(plain(old));
    await snapshots.confirmOutbox(5, old);
    expect((await snapshots.load("counter/legacy"))?.outboxConfirmed).toBe(true);
    const next: ActorRecord = { ...old, generation: 8, inboxSeq: 41, outbox: [] };
    const commit = {
      shard: 5,
      owner: "host-a",
      token,
      keepGenerations: 3,
      historyRetentionMs: 600_000,
    };
    expect((await snapshots.commit({ ...commit, previous: old, next })).outcome).toBe("committed");
    expect(await client().type(layout.actor("counter/legacy"))).toBe("string");
    expect(await snapshots.load("counter/legacy")).toEqual({
      record: next,
      outboxConfirmed: false,
    });
    expect((await snapshots.history("counter/legacy")).map((record) => record.generation)).toEqual([
      7,
    ]);
    // A stale writer of the old generation is refused as before.
    expect((await snapshots.commit({ ...commit, previous: old, next })).outcome).toBe("conflict");
  });

  it("writes one commit as the actor string, the history list, the shard's timer set and dirty set", async () => {
    const layout = new RedisKeys(`test-snapshots-${randomUUID()}`);
    const snapshots = new RedisSnapshotStore(client(), layout);
    const token = (await new RedisLeaseStore(client(), layout).acquire(3, "host-a", 60_000))!;
    const base: ActorRecord = {
      address: "counter/c1",
      generation: 1,
      inboxSeq: 4,
      machineVersion: "1",
      state: { value: "counting" },
      eventSeq: 0,
      effects: [{ effectId: "4.0", effect: "double", input: 1 }],
      timers: [{ timerId: "alarm", deadlineMs: 12_000, event: { type: "alarm" } }],
      outbox: [],
    };
    const next = { ...base, generation: 2, inboxSeq: 5 };
    const commit = {
      shard: 3,
      owner: "host-a",
      token,
      keepGenerations: 3,
      historyRetentionMs: 600_000,
    };
    expect((await snapshots.commit({ ...commit, previous: undefined, next: base })).outcome).toBe(
      "committed",
    );
    expect((await snapshots.commit({ ...commit, previous: base, next })).outcome).toBe("committed");
    // "<generation>:<confirmed>:<record length>:" then the record (issue #12).
    const stored = (await client().getBuffer(layout.actor("counter/c1")))!;
    const header = /^2:0:(\d+):/.exec(stored.toString("latin1"))!;
    expect(stored.byteLength).toBe(header[0].length + Number(header[1]));
    expect(await client().type(layout.actor("counter/c1"))).toBe("string");
    expect(await client().llen(layout.history("counter/c1"))).toBe(1);
    const historyTtlMs = await client().pttl(layout.history("counter/c1"));
    expect(historyTtlMs).toBeGreaterThan(590_000);
    expect(historyTtlMs).toBeLessThanOrEqual(600_000);
    expect(await client().pttl(layout.actor("counter/c1"))).toBe(-1);
    expect(await client().zrangebyscore(layout.timers(3), "-inf", "+inf")).toEqual([
      "12000|counter/c1|alarm",
    ]);
    expect(await client().zscore(layout.timers(3), "12000|counter/c1|alarm")).toBe("12000");
    expect(await client().smembers(layout.dirty(3))).toEqual(["counter/c1"]);
  });

  it("confirming an outbox rewrites the actor string without it: the stored bytes shrink to the header and the record", async () => {
    const layout = new RedisKeys(`test-snapshots-${randomUUID()}`);
    const snapshots = new RedisSnapshotStore(client(), layout);
    const token = (await new RedisLeaseStore(client(), layout).acquire(4, "host-a", 60_000))!;
    const body = new Uint8Array(2_000).fill(7);
    const next: ActorRecord = {
      address: "counter/c2",
      generation: 1,
      inboxSeq: 1,
      machineVersion: "1",
      state: { value: "counting" },
      eventSeq: 1,
      effects: [],
      timers: [],
      outbox: [
        {
          subject: "troupe.counter.c2.events.x",
          messageId: "m1",
          contentType: "application/json",
          body,
        },
      ],
    };
    await snapshots.commit({
      shard: 4,
      owner: "host-a",
      token,
      previous: undefined,
      next,
      keepGenerations: 3,
    });
    const key = layout.actor("counter/c2");
    const before = (await client().getBuffer(key))!;
    expect(before.byteLength).toBeGreaterThan(2_000);
    expect(await client().smembers(layout.dirty(4))).toEqual(["counter/c2"]);
    await snapshots.confirmOutbox(4, next);
    const after = (await client().getBuffer(key))!;
    const header = /^1:1:(\d+):/.exec(after.toString("latin1"))!;
    expect(after.byteLength).toBe(header[0].length + Number(header[1]));
    expect(after.byteLength).toBeLessThan(200);
    expect(await client().smembers(layout.dirty(4))).toEqual([]);
    expect(await snapshots.load("counter/c2")).toEqual({
      record: { ...next, outbox: [] },
      outboxConfirmed: true,
    });
  });
});
