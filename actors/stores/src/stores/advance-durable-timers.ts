import type { RedisKeys } from "@troupe/protocol/internal";
import type { RedisConnection } from "./redis-connection.js";
import { RedisScript } from "./redis-script.js";

// KEYS: one shard's timer set; ARGV: ms. Lowers every score by ms; members (which
// carry the real deadline the firing reports) stay as they are.
const advanceScript = new RedisScript(`
local moved = 0
local entries = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
for j = 1, #entries, 2 do
  redis.call('ZADD', KEYS[1], 'XX', tonumber(entries[j + 1]) - tonumber(ARGV[1]), entries[j])
  moved = moved + 1
end
return moved
`);

/**
 * Lets `ms` of time pass for every durable timer armed now, for tests (the
 * test kit's `clock.advance`): each member of the deployment's
 * timer sets (`<p>:timers:<shard>`, scored by deadline in Unix ms) is scored
 * `ms` lower, one script per shard (each shard's timers are in their own hash
 * slot), so a host's next timer poll (every
 * `timerPollIntervalMs`, by the Redis server's clock) finds those whose
 * deadline is now within reach. The member keeps the real deadline, so the
 * `timer.fired` message names the timer the actor's snapshot holds and the
 * actor accepts it. Timers armed later count from the time they are armed.
 * Not for production: a shifted timer fires early on purpose.
 *
 * @param redis - a connection to the deployment's Redis.
 * @param keys - the deployment's key layout (`new RedisKeys(prefix)`).
 * @param shardCount - the deployment's shard count (shards 0 … shardCount − 1).
 * @param ms - how far, in ms (≥ 0).
 * @returns how many armed timers were moved.
 * @throws RangeError when `ms` is negative or not finite, or `shardCount` is not a positive integer.
 */
export async function advanceDurableTimers(
  redis: RedisConnection,
  keys: RedisKeys,
  shardCount: number,
  ms: number,
): Promise<number> {
  if (!Number.isFinite(ms) || ms < 0) {
    throw new RangeError(`advanceDurableTimers: ms must be a finite number ≥ 0, got ${ms}`);
  }
  if (!Number.isInteger(shardCount) || shardCount < 1) {
    throw new RangeError(
      `advanceDurableTimers: shardCount must be an integer ≥ 1, got ${shardCount}`,
    );
  }
  if (ms === 0) return 0;
  const moved = await Promise.all(
    Array.from({ length: shardCount }, (_, shard) =>
      advanceScript.run(redis, [keys.timers(shard)], [Math.round(ms)]),
    ),
  );
  return moved.reduce<number>((sum, count) => sum + Number(count), 0);
}
