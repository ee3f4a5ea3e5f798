import type { RedisConnection } from "@troupe/runtime";

/**
 * The Redis server's clock, in Unix ms. Membership expiries and timer deadlines
 * are compared against this clock by the hosts, so the admin view does the same
 * rather than trusting the local clock.
 *
 * @param redis - ioredis client.
 * @returns Unix time in ms (whole ms) according to `TIME`.
 */
export async function redisTimeMs(redis: RedisConnection): Promise<number> {
  const [seconds, microseconds] = await redis.time();
  return Number(seconds) * 1000 + Math.floor(Number(microseconds) / 1000);
}
