import { RedisKeys } from "@troupe/protocol/internal";
import {
  confirmStoredActorValue,
  encodeActorRecord,
  encodeStoredActorValue,
} from "@troupe/runtime/internal";
import { type ActorRecord } from "@troupe/runtime";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { counterKind, type CounterContext } from "../fixtures/counter-machine.js";
import { startCluster, type Cluster } from "../support/cluster.js";
import { readStream } from "../support/read-stream.js";
import { waitFor } from "../support/wait-for.js";

/** `record` with its machine context's count replaced. */
function withCount(record: ActorRecord, count: number): ActorRecord {
  const state = record.state as { context: CounterContext };
  return { ...record, state: { ...state, context: { ...state.context, count } } };
}

describe("journal replay", () => {
  let cluster: Cluster;
  const keys = new RedisKeys("troupe", 8);
  beforeAll(async () => {
    cluster = await startCluster({ shardCount: 8 });
  });
  afterEach(async () => {
    await Promise.all(cluster.hosts.map((host) => host.stop()));
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  async function waitForContext(
    actor: string,
    expected: Partial<CounterContext>,
    timeoutMs: number,
  ): Promise<void> {
    await waitFor(
      async () => {
        const context = await cluster.context<CounterContext>(actor);
        return (
          context !== undefined &&
          Object.entries(expected).every(
            ([key, value]) => context[key as keyof CounterContext] === value,
          )
        );
      },
      { timeoutMs, description: `${actor} at ${JSON.stringify(expected)}` },
    );
  }

  it("replaying a journal of increments, a rejected message, a timer and an effect reproduces the stored snapshot", async () => {
    const host = await cluster.startHost();
    await cluster.waitForOwners([host.hostId], 15_000);
    const actor = "counter/replay-mixed";

    await cluster.send(actor, "counter.increment", { by: 3 });
    await cluster.send(actor, "counter.increment", { by: "lots" }); // schema-invalid: rejected
    await cluster.send(actor, "counter.schedule", { delayMs: 300 });
    await cluster.send(actor, "counter.double", {});
    await waitForContext(actor, { count: 6, alarms: 1 }, 10_000);
    await cluster.send(actor, "counter.increment", { by: 4 });
    await waitForContext(actor, { count: 10, alarms: 1 }, 10_000);

    const stored = await cluster.snapshots.load(actor);
    // 3 increments (one rejected), schedule, timer.fired, double, effect.completed
    expect(stored?.record.generation).toBe(7);
    expect(stored?.record.timers).toEqual([]);
    expect(stored?.record.effects).toEqual([]);
    // counter.changed ×3, counter.alarm_fired, message.rejected
    expect(stored?.record.eventSeq).toBe(5);
    const rejected = await readStream(
      cluster.js,
      cluster.streams.events,
      "troupe.counter.replay-mixed.events.message.rejected",
    );
    expect(rejected).toHaveLength(1);

    const report = await cluster.replay(actor, counterKind);
    expect(report).toEqual({
      actor,
      reproduces: true,
      messagesRead: 7,
      storedGeneration: 7,
      replayedGeneration: 7,
      divergence: undefined,
    });
  });

  it("replay reports where a tampered snapshot diverges: the latest generation, then an earlier kept one", async () => {
    const host = await cluster.startHost();
    await cluster.waitForOwners([host.hostId], 15_000);
    const actor = "counter/replay-tampered";
    for (let by = 1; by <= 6; by += 1) await cluster.send(actor, "counter.increment", { by });
    await waitForContext(actor, { count: 21 }, 10_000);
    // Nothing may write the actor while the test edits its snapshot.
    await host.stop();
    expect((await cluster.replay(actor, counterKind)).reproduces).toBe(true);

    const latest = (await cluster.snapshots.load(actor))!.record;
    expect(latest.generation).toBe(6);
    // Stored as the host left it: the outbox confirmed and cut off.
    await cluster.redis.set(
      keys.actor(actor),
      confirmStoredActorValue(encodeStoredActorValue(withCount(latest, 999))),
    );
    const latestTampered = await cluster.replay(actor, counterKind);
    expect(latestTampered.reproduces).toBe(false);
    expect(latestTampered.divergence).toEqual({
      path: "/state/context/count",
      expected: 999,
      actual: 21,
      generation: 6,
    });

    // History is newest first: index 1 is generation 4 (count 1 + 2 + 3 + 4).
    const history = await cluster.snapshots.history(actor);
    expect(history.map((record) => record.generation)).toEqual([5, 4, 3]);
    await cluster.redis.lset(
      keys.history(actor),
      1,
      Buffer.from(encodeActorRecord(withCount(history[1]!, -1))),
    );
    const historyTampered = await cluster.replay(actor, counterKind);
    expect(historyTampered.reproduces).toBe(false);
    // The oldest kept generation that differs is reported.
    expect(historyTampered.divergence).toEqual({
      path: "/state/context/count",
      expected: -1,
      actual: 10,
      generation: 4,
    });
    expect(historyTampered.messagesRead).toBe(6);
  });
});
