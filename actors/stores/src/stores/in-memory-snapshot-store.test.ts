import { describe, expect, it } from "vitest";
import { ManualClock, type ActorRecord } from "@troupe/step";
import { InMemoryLeaseStore } from "./in-memory-lease-store.js";
import { InMemorySnapshotStore } from "./in-memory-snapshot-store.js";
import { snapshotStoreContractCases } from "./snapshot-store-contract.js";

describe("InMemorySnapshotStore keeps the SnapshotStore contract (on a manual clock)", () => {
  const clock = new ManualClock(1_767_225_600_000);
  const leases = new InMemoryLeaseStore({ clock });
  const snapshots = new InMemorySnapshotStore({ leases, clock });
  const elapse = (ms: number) => Promise.resolve(void clock.advance(ms));
  for (const { name, run } of snapshotStoreContractCases(() => ({ snapshots, leases, elapse }))) {
    it(name, run);
  }
});

describe("InMemorySnapshotStore", () => {
  it("a timer falls due when the store's clock reaches its deadline, not before", async () => {
    const clock = new ManualClock(10_000);
    const leases = new InMemoryLeaseStore({ clock });
    const snapshots = new InMemorySnapshotStore({ leases, clock });
    const token = (await leases.acquire(5, "host-a", 1_000_000))!;
    const next: ActorRecord = {
      address: "counter/c1",
      generation: 1,
      inboxSeq: 1,
      machineVersion: "1",
      state: undefined,
      eventSeq: 0,
      effects: [],
      timers: [{ timerId: "alarm", deadlineMs: 12_000, event: { type: "alarm" } }],
      outbox: [],
    };
    await snapshots.commit({
      shard: 5,
      owner: "host-a",
      token,
      previous: undefined,
      next,
      keepGenerations: 3,
    });
    clock.advance(1_999);
    expect(await snapshots.dueTimers([5], 10)).toEqual([]);
    clock.advance(1);
    expect(await snapshots.dueTimers([5], 10)).toEqual([
      {
        shard: 5,
        address: "counter/c1",
        timer: { timerId: "alarm", deadlineMs: 12_000 },
        dueAtMs: 12_000,
      },
    ]);
  });

  it("a loaded record is a copy: changing it does not change the store", async () => {
    const leases = new InMemoryLeaseStore();
    const snapshots = new InMemorySnapshotStore({ leases });
    const token = (await leases.acquire(0, "host-a", 60_000))!;
    const next: ActorRecord = {
      address: "counter/c2",
      generation: 1,
      inboxSeq: 1,
      machineVersion: "1",
      state: { context: { count: 1 } },
      eventSeq: 0,
      effects: [],
      timers: [],
      outbox: [],
    };
    await snapshots.commit({
      shard: 0,
      owner: "host-a",
      token,
      previous: undefined,
      next,
      keepGenerations: 3,
    });
    const loaded = await snapshots.load("counter/c2");
    (loaded?.record.state as { context: { count: number } }).context.count = 99;
    expect((await snapshots.load("counter/c2"))?.record.state).toEqual({ context: { count: 1 } });
  });
});
