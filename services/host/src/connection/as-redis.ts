import type { RedisConnection } from "@troupe/runtime";
import type { Redis } from "ioredis";

/**
 * Narrows a {@link RedisConnection} to `Redis` for the APIs that still declare
 * `Redis`: agent modules' `redis` (`AgentModuleContext`), the console
 * inspector and the admin and MCP connections, whose readers hand it to such
 * code. Both classes share the commands Troupe uses and a Cluster runs every
 * Troupe script (one hash tag per shard), so the cast is sound at
 * run time for those commands. Every use is a call of this function, so `grep
 * asRedis` finds them all.
 *
 * @param connection - a `Redis` or a `Cluster`.
 * @returns the same object, typed `Redis`.
 */
export function asRedis(connection: RedisConnection): Redis {
  return connection as Redis;
}
