import { redactUrl } from "@troupe/client";
import { createRedisConnection } from "../connection/create-redis-connection.js";
import { describeRedis, type RedisSettings } from "../connection/redis-settings.js";
import { RedisUnreachableError } from "./redis-unreachable-error.js";

/**
 * Connects to Redis once, without retries, and PINGs it (through the
 * connection factory: standalone, Cluster or Sentinel, with ACL user and TLS).
 *
 * @param redis - Redis settings, or a URL (e.g. `redis://127.0.0.1:6379`).
 * @param timeoutMs - connect timeout, in ms; default 3 000 ms.
 * @throws RedisUnreachableError (URL redacted) when it does not answer, refuses the
 *   credentials (`WRONGPASS`) or the TLS handshake fails.
 */
export async function checkRedis(redis: RedisSettings | string, timeoutMs = 3_000): Promise<void> {
  const settings: RedisSettings =
    typeof redis === "string" ? { mode: "standalone", url: redis } : redis;
  const connection = createRedisConnection(settings, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
  });
  // The "error" event carries the reason (e.g. ECONNREFUSED); connect() only
  // rejects with "Connection is closed".
  let firstError: unknown;
  connection.on("error", (error: unknown) => (firstError ??= error));
  // A deadline over the whole check: a Sentinel or Cluster client may keep
  // trying other nodes past one node's connect timeout.
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer within ${timeoutMs * 2} ms`)),
      timeoutMs * 2,
    );
  });
  try {
    await Promise.race([
      (async () => {
        await connection.connect();
        await connection.ping();
      })(),
      deadline,
    ]);
  } catch (error) {
    throw new RedisUnreachableError(describeRedis(settings, redactUrl), firstError ?? error);
  } finally {
    clearTimeout(timer);
    connection.disconnect();
  }
}
