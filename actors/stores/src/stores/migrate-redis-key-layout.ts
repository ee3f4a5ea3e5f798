import { RedisKeys } from "@troupe/protocol/internal";
import { scanAll } from "./move-actor-keys.js";
import type { RedisConnection } from "./redis-connection.js";

/** What {@link migrateRedisKeyLayout} moved. */
export interface RedisKeyLayoutMigration {
  /** Shard keys moved (fencing counters, watermarks, timer sets, dirty sets). */
  readonly shardKeys: number;
  /** Actor keys moved (latest generations and histories). */
  readonly actorKeys: number;
  /** Layout-1 leases dropped (every host is stopped, so none is held). */
  readonly leasesDropped: number;
}

/**
 * Moves a stopped deployment's Redis keys from layout 1 (no
 * hash tags, `<p>:fence:<shard>`, `<p>:actor:<address>`) to layout 2 (a shard's
 * keys under the hash tag `{<shard>}`, `RedisKeys`), then records
 * `keyLayout = 2` in `<p>:deployment`. Idempotent: a second run finds nothing
 * to move. Layout 1 only ever ran on a single Redis server (its scripts are
 * refused by a Cluster), so keys move with `RENAME`.
 *
 * @param redis - the deployment's Redis (a single server).
 * @param prefix - the deployment prefix.
 * @param shardCount - the deployment's shard count (`<p>:deployment` `shardCount`).
 * @returns counts of what moved.
 * @throws Error naming the live hosts when any host heartbeats (stop them first).
 */
export async function migrateRedisKeyLayout(
  redis: RedisConnection,
  prefix: string,
  shardCount: number,
): Promise<RedisKeyLayoutMigration> {
  const keys = new RedisKeys(prefix, shardCount);
  const legacy = keys.legacy();
  const [seconds] = (await redis.time()) as [string | number, string | number];
  const live = await redis.zrangebyscore(keys.hosts(), Number(seconds) * 1000, "+inf");
  if (live.length > 0) {
    throw new Error(
      `hosts still run on deployment "${prefix}" (${live.join(", ")}): stop every host before moving its Redis keys`,
    );
  }
  let shardKeys = 0;
  let leasesDropped = 0;
  for (let shard = 0; shard < shardCount; shard += 1) {
    leasesDropped += await redis.del(legacy.lease(shard));
    for (const [from, to] of [
      [legacy.fence(shard), keys.fence(shard)],
      [legacy.watermark(shard), keys.watermark(shard)],
      [legacy.timers(shard), keys.timers(shard)],
      [legacy.dirty(shard), keys.dirty(shard)],
    ] as const) {
      if ((await redis.exists(from)) === 1) {
        await redis.rename(from, to);
        shardKeys += 1;
      }
    }
  }
  let actorKeys = 0;
  for (const [pattern, kind] of [
    [legacy.actorPattern, "actor"],
    [legacy.historyPattern, "history"],
  ] as const) {
    const start = `${prefix}:${kind}:`;
    for (const key of await scanAll(redis, pattern)) {
      const address = key.slice(start.length);
      await redis.rename(key, kind === "actor" ? keys.actor(address) : keys.history(address));
      actorKeys += 1;
    }
  }
  await redis.hset(keys.deployment(), "keyLayout", RedisKeys.LAYOUT);
  return { shardKeys, actorKeys, leasesDropped };
}
