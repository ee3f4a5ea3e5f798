import { Redis } from "ioredis";
import { RedisUnreachableError } from "./redis-unreachable-error.js";

/**
 * Connects to Redis once, without retries, and PINGs it.
 *
 * @param url - Redis URL, e.g. `redis://127.0.0.1:6379`.
 * @param timeoutMs - connect timeout, in ms; default 3 000 ms.
 * @throws RedisUnreachableError when it does not answer.
 */
export async function checkRedis(url: string, timeoutMs = 3_000): Promise<void> {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
  });
  // The "error" event carries the reason (e.g. ECONNREFUSED); connect() only
  // rejects with "Connection is closed".
  let firstError: unknown;
  redis.on("error", (error: unknown) => (firstError ??= error));
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    throw new RedisUnreachableError(url, firstError ?? error);
  } finally {
    redis.disconnect();
  }
}
