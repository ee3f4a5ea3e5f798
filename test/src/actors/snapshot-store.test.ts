import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { RedisKeys } from "@troupe/protocol/internal";
import {
  RedisLeaseStore,
  RedisSnapshotStore,
  snapshotStoreContractCases,
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
  it("writes one commit as the actor hash, the history list, the shard's timer set and dirty set", async () => {
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
    const commit = { shard: 3, token, keepGenerations: 3 };
    expect(await snapshots.commit({ ...commit, previous: undefined, next: base })).toBe(
      "committed",
    );
    expect(await snapshots.commit({ ...commit, previous: base, next })).toBe("committed");
    expect(await client().hget(layout.actor("counter/c1"), "gen")).toBe("2");
    expect(await client().hget(layout.actor("counter/c1"), "confirmed")).toBe("0");
    expect(await client().llen(layout.history("counter/c1"))).toBe(1);
    expect(await client().zrangebyscore(layout.timers(3), "-inf", "+inf")).toEqual([
      "12000|counter/c1|alarm",
    ]);
    expect(await client().zscore(layout.timers(3), "12000|counter/c1|alarm")).toBe("12000");
    expect(await client().smembers(layout.dirty(3))).toEqual(["counter/c1"]);
  });
});
