import { Cluster } from "ioredis";
import type { RedisKeys } from "@troupe/protocol/internal";
import type { RedisConnection } from "./redis-connection.js";

/**
 * Moves the actor keys (latest generation and history) stored under shard
 * `shard` of layout `from` to the hash tag of their shard under layout `to`
 * (an actor's keys carry its shard's tag, so a new shard count moves
 * them). For a shard-count change, while no host processes (decision 0035).
 * On one server a key moves with `RENAME`; on a Redis Cluster, where the two
 * tags are in different slots, with `DUMP` / `RESTORE` (keeping the TTL) and
 * `DEL`. Idempotent: a key already moved is not found again.
 *
 * @param redis - the deployment's Redis.
 * @param from - the key layout of the old shard count.
 * @param to - the key layout of the new shard count.
 * @param shard - an old shard number.
 * @returns how many keys moved.
 */
export async function moveActorKeys(
  redis: RedisConnection,
  from: RedisKeys,
  to: RedisKeys,
  shard: number,
): Promise<number> {
  let moved = 0;
  for (const kind of ["actor", "history"] as const) {
    const start = `${from.shardTag(shard)}:${kind}:`;
    for (const key of await scanAll(redis, `${start}*`)) {
      const address = key.slice(start.length);
      const target = kind === "actor" ? to.actor(address) : to.history(address);
      if (target === key) continue;
      await moveKey(redis, key, target);
      moved += 1;
    }
  }
  return moved;
}

/**
 * Every key matching `pattern` (a `SCAN MATCH` glob), on the server or on every
 * master of a Cluster.
 */
export async function scanAll(redis: RedisConnection, pattern: string): Promise<string[]> {
  const nodes = redis instanceof Cluster ? redis.nodes("master") : [redis];
  const found: string[] = [];
  for (const node of nodes) {
    let cursor = "0";
    do {
      const [next, keys] = await node.scan(cursor, "MATCH", pattern, "COUNT", 500);
      cursor = next;
      found.push(...keys);
    } while (cursor !== "0");
  }
  return found;
}

async function moveKey(redis: RedisConnection, from: string, to: string): Promise<void> {
  if (!(redis instanceof Cluster)) {
    await redis.rename(from, to);
    return;
  }
  const [dump, ttl] = await Promise.all([redis.dumpBuffer(from), redis.pttl(from)]);
  if (dump === null) return;
  await redis.restore(to, ttl > 0 ? ttl : 0, dump, "REPLACE");
  await redis.del(from);
}
