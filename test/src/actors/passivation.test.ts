import { RedisKeys } from "@troupe/protocol/internal";
import { ActorHost, type HostSettingsInput } from "@troupe/runtime";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { counterKind, type CounterContext } from "../fixtures/counter-machine.js";
import { startCluster, type Cluster } from "../support/cluster.js";
import { waitFor } from "../support/wait-for.js";

describe("passivation and snapshot generations", () => {
  let cluster: Cluster;
  const running: ActorHost[] = [];
  beforeAll(async () => {
    // In-process hosts log at `TROUPE_LOG_LEVEL`; keep them as quiet as the child processes.
    process.env.TROUPE_LOG_LEVEL ??= "warn";
    cluster = await startCluster({ shardCount: 16 });
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((host) => host.stop()));
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  /** An in-process host (so the test can read `activeActorCount`) owning every shard. */
  async function startInProcessHost(settings: HostSettingsInput): Promise<ActorHost> {
    const host = await ActorHost.start({
      nats: cluster.servers.natsUrl,
      redis: cluster.servers.redisUrl,
      kinds: [counterKind],
      settings: { shardCount: cluster.shardCount, ...settings },
    });
    running.push(host);
    await cluster.waitForOwners([host.hostId], 10_000);
    return host;
  }

  async function waitForCounts(actors: readonly string[], count: number, timeoutMs: number) {
    await waitFor(
      async () => {
        const contexts = await Promise.all(
          actors.map((actor) => cluster.context<CounterContext>(actor)),
        );
        return contexts.every((context) => context?.count === count);
      },
      { timeoutMs, description: `every actor at count ${count}` },
    );
  }

  it("a host that served 300 actors keeps at most maxActiveActors (20) in memory, and passivated actors come back with their state", async () => {
    // Idle passivation is far off: only the maxActiveActors bound can passivate here.
    const host = await startInProcessHost({ maxActiveActors: 20, passivateAfterMs: 60_000 });
    const actors = Array.from({ length: 300 }, (_, index) => `counter/p${index}`);

    // Sample the count while the messages are processed, to see the bound being exercised.
    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, host.activeActorCount)), 5);
    try {
      await Promise.all(actors.map((actor) => cluster.send(actor, "counter.increment", { by: 1 })));
      await waitForCounts(actors, 1, 15_000);
    } finally {
      clearInterval(sampler);
    }
    expect(peak).toBeGreaterThan(20);
    await waitFor(() => host.activeActorCount <= 20, {
      timeoutMs: 5_000,
      description: "at most 20 actors in memory",
    });

    // At least 280 of them were passivated; each resumes from its snapshot.
    await Promise.all(actors.map((actor) => cluster.send(actor, "counter.increment", { by: 2 })));
    await waitForCounts(actors, 3, 15_000);
    const generations = await Promise.all(
      actors.map(async (actor) => (await cluster.snapshots.load(actor))?.record.generation),
    );
    expect(generations).toEqual(actors.map(() => 2));
    await waitFor(() => host.activeActorCount <= 20, {
      timeoutMs: 5_000,
      description: "at most 20 actors in memory again",
    });
  });

  it("an actor idle for passivateAfterMs leaves memory and is re-activated from its snapshot with its state intact", async () => {
    const host = await startInProcessHost({ maxActiveActors: 20, passivateAfterMs: 200 });
    const actor = "counter/idle-1";

    await cluster.send(actor, "counter.increment", { by: 5 });
    await cluster.send(actor, "counter.increment", { by: 7 });
    await waitForCounts([actor], 12, 10_000);
    await waitFor(() => host.activeActorCount === 0, {
      timeoutMs: 5_000,
      description: "the idle actor passivated",
    });

    await cluster.send(actor, "counter.increment", { by: 1 });
    await waitForCounts([actor], 13, 10_000);
    const stored = await cluster.snapshots.load(actor);
    expect(stored?.record.generation).toBe(3);
    expect(stored?.record.eventSeq).toBe(3);
    expect(stored?.record.inboxSeq).toBeGreaterThan(0);
    const report = await cluster.replay(actor, counterKind);
    expect(report.reproduces).toBe(true);
    expect(report.messagesRead).toBe(3);
  });

  it("passivated actors leave nothing in the host's memory, and in Redis only their latest generation without its outbox once the kept generations expire", async () => {
    const host = await startInProcessHost({
      maxActiveActors: 1000,
      passivateAfterMs: 200,
      historyRetentionMs: 1000,
    });
    const actors = Array.from({ length: 50 }, (_, index) => `counter/left-${index}`);
    for (const by of [1, 2]) {
      await Promise.all(actors.map((actor) => cluster.send(actor, "counter.increment", { by })));
      await waitForCounts(actors, by === 1 ? 1 : 3, 15_000);
    }
    await Promise.all(actors.map((actor) => cluster.send(actor, "counter.double", {})));
    await waitForCounts(actors, 6, 15_000);
    await waitFor(() => host.activeActorCount === 0, {
      timeoutMs: 10_000,
      description: "every actor passivated",
    });
    expect(host.retention).toEqual({
      actorCells: 0,
      runningEffects: 0,
      shards: cluster.shardCount,
      releasing: 0,
      orphanWorkers: 0,
    });
    // Each actor: its latest generation (4: two increments, the double request,
    // its result), the outbox confirmed and dropped; the kept generations go
    // historyRetentionMs (1 s) after the last commit.
    for (const actor of actors) {
      const stored = await cluster.snapshots.load(actor);
      expect(stored?.record.generation).toBe(4);
      expect(stored?.outboxConfirmed).toBe(true);
      expect(stored?.record.outbox).toEqual([]);
    }
    // Every key naming one of these actors (the effect's host-run counter aside).
    const keysOf = async (actor: string) =>
      (await cluster.redis.keys(`troupe:*${actor}*`)).filter(
        (key) =>
          (key.endsWith(`:${actor}`) || key.includes(`:${actor}:`)) &&
          !key.startsWith("troupe:effect-host-run:"),
      );
    await waitFor(
      async () =>
        (await Promise.all(actors.map((actor) => keysOf(actor)))).every(
          (keys) => keys.length === 1,
        ),
      { timeoutMs: 10_000, description: "the kept generations expired" },
    );
    const layout = new RedisKeys("troupe", cluster.shardCount);
    for (const actor of actors) expect(await keysOf(actor)).toEqual([layout.actor(actor)]);
  });

  it("after 10 messages the latest snapshot is generation 10 and history holds generations 9, 8, 7, newest first", async () => {
    await startInProcessHost({});
    const actor = "counter/generations-1";

    for (let by = 1; by <= 10; by += 1) await cluster.send(actor, "counter.increment", { by });
    await waitForCounts([actor], 55, 10_000);

    const latest = await cluster.snapshots.load(actor);
    expect(latest?.record.generation).toBe(10);
    const history = await cluster.snapshots.history(actor);
    expect(history.map((record) => record.generation)).toEqual([9, 8, 7]);
    // Each kept generation is the state after that many messages: 1 + … + n.
    expect(
      history.map((record) => (record.state as { context: CounterContext }).context.count),
    ).toEqual([45, 36, 28]);
  });
});
