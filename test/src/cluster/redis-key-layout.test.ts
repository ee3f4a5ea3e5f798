import { ActorHost, RedisKeyLayoutError, migrateRedisKeyLayout } from "@troupe/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { counterKind, type CounterContext } from "../fixtures/counter-machine.js";
import { startCluster, type Cluster } from "../support/cluster.js";
import { waitFor } from "../support/wait-for.js";

// Issue #17 moved a shard's Redis keys under one hash tag (key layout 2). A
// deployment written before (layout 1) is refused by a host of this version
// until `troupe migrate redis-keys` (migrateRedisKeyLayout) moved its keys; the
// actors then go on from their stored state.

describe("the Redis key layout of issue #17", () => {
  let cluster: Cluster;
  beforeAll(async () => {
    process.env.TROUPE_LOG_LEVEL ??= "warn";
    cluster = await startCluster({ shardCount: 8 });
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  const startHost = () =>
    ActorHost.start({
      nats: cluster.servers.natsUrl,
      redis: cluster.servers.redisUrl,
      kinds: [counterKind],
      settings: { shardCount: 8, membershipTtlMs: 500, membershipSettleMs: 0 },
    });

  it("a layout-1 deployment is refused with redis_key_layout, and after migrateRedisKeyLayout its actors go on from their state", async () => {
    const actors = ["counter/layout-a", "counter/layout-b", "counter/layout-c"];
    const host = await startHost();
    for (const actor of actors) await cluster.send(actor, "counter.increment", { by: 5 });
    await waitFor(
      async () =>
        (await Promise.all(actors.map((actor) => cluster.context<CounterContext>(actor)))).every(
          (context) => context?.count === 5,
        ),
      { timeoutMs: 20_000, description: "every counter at 5" },
    );
    await host.stop();

    // Turn the stored data back into layout 1: the keys without hash tags.
    const { redis } = cluster;
    const keys = (await import("@troupe/protocol/internal")).RedisKeys;
    const layout = new keys("troupe", 8);
    const legacy = layout.legacy();
    const fences: number[] = [];
    for (let shard = 0; shard < 8; shard += 1) {
      for (const [to, from] of [
        [legacy.fence(shard), layout.fence(shard)],
        [legacy.watermark(shard), layout.watermark(shard)],
      ] as const) {
        if ((await redis.exists(from)) === 1) await redis.rename(from, to);
      }
      fences.push(Number((await redis.get(legacy.fence(shard))) ?? 0));
    }
    for (const actor of actors) {
      await redis.rename(layout.actor(actor), `troupe:actor:${actor}`);
      if ((await redis.exists(layout.history(actor))) === 1) {
        await redis.rename(layout.history(actor), `troupe:history:${actor}`);
      }
    }
    await redis.hdel(layout.deployment(), "keyLayout");

    const refused = await startHost().then(
      async (started) => {
        await started.stop();
        return undefined;
      },
      (error: unknown) => error,
    );
    expect(RedisKeyLayoutError.isInstance(refused)).toBe(true);
    expect((refused as RedisKeyLayoutError).code).toBe("redis_key_layout");
    expect((refused as Error).message).toMatch(/troupe migrate redis-keys --prefix troupe/);

    const moved = await migrateRedisKeyLayout(redis, "troupe", 8);
    expect(moved.actorKeys).toBeGreaterThanOrEqual(actors.length);
    expect(await redis.hget(layout.deployment(), "keyLayout")).toBe("2");
    expect(await migrateRedisKeyLayout(redis, "troupe", 8)).toEqual({
      shardKeys: 0,
      actorKeys: 0,
      leasesDropped: 0,
    });

    const again = await startHost();
    try {
      for (const actor of actors) await cluster.send(actor, "counter.increment", { by: 2 });
      await waitFor(
        async () =>
          (await Promise.all(actors.map((actor) => cluster.context<CounterContext>(actor)))).every(
            (context) => context?.count === 7,
          ),
        { timeoutMs: 20_000, description: "every counter at 7 (5 kept + 2)" },
      );
      // The fencing counters moved too: the new tokens are above the old ones.
      for (const actor of actors) {
        const shard = layout.shardOfAddress(actor);
        expect(Number(await redis.get(layout.fence(shard)))).toBeGreaterThan(fences[shard]!);
      }
    } finally {
      await again.stop();
    }
  }, 90_000);
});
