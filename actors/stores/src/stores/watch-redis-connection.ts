import type { RedisConnection } from "./redis-connection.js";

/** The part of a logger {@link watchRedisConnection} uses (a pino `Logger` fits). */
export interface RedisConnectionLogger {
  warn(details: Record<string, unknown>, message: string): void;
}

/**
 * Listens to an ioredis client's connection events so an outage is reported
 * once, not once per reconnect attempt, and never as ioredis's
 * "Unhandled error event" on stderr (docs/decisions/0010):
 *
 * - the first `reconnecting` after the connection dropped (or an `error`) logs at
 *   warn `redis unreachable; reconnecting` with `{ client, err, attempt, nextDelayMs }`;
 * - later errors and attempts of the same outage are counted, not logged;
 * - `ready` after an outage logs at warn too (so a log filtered to warnings
 *   never shows an outage without its end) `redis reachable again` with
 *   `{ client, attempts, downMs }`.
 *
 * @param redis - the client (every client the host, the agents and the CLI create).
 * @param logger - where to log.
 * @param client - a name for the client in the log (`host`, `tools`, `cli`…).
 * @returns a function removing the listeners.
 */
export function watchRedisConnection(
  redis: RedisConnection,
  logger: RedisConnectionLogger,
  client: string,
): () => void {
  let outage: { sinceMs: number; error: unknown; warned: boolean; attempts: number } | undefined;
  const begin = () =>
    (outage ??= { sinceMs: Date.now(), error: undefined, warned: false, attempts: 0 });
  const onError = (error: unknown) => {
    const current = begin();
    current.error ??= error;
  };
  const onClose = () => {
    if (redis.status !== "end") begin();
  };
  const onReconnecting = (nextDelayMs: unknown) => {
    const current = begin();
    current.attempts += 1;
    if (current.warned) return;
    current.warned = true;
    logger.warn(
      {
        client,
        err: current.error,
        attempt: current.attempts,
        nextDelayMs: typeof nextDelayMs === "number" ? nextDelayMs : undefined,
      },
      "redis unreachable; reconnecting (logged once per outage)",
    );
  };
  const onReady = () => {
    const current = outage;
    outage = undefined;
    if (current?.warned !== true) return;
    logger.warn(
      { client, attempts: current.attempts, downMs: Date.now() - current.sinceMs },
      "redis reachable again",
    );
  };
  redis.on("error", onError);
  redis.on("close", onClose);
  redis.on("reconnecting", onReconnecting);
  redis.on("ready", onReady);
  return () => {
    redis.off("error", onError);
    redis.off("close", onClose);
    redis.off("reconnecting", onReconnecting);
    redis.off("ready", onReady);
  };
}

/**
 * Reconnect delays of the clients Troupe creates: 100 ms, 200 ms, … capped at
 * 1 s, so hosts reconnect within about a second of each other after an outage —
 * well inside the membership settling window (docs/decisions/0010). ioredis's default
 * grows to 2 s.
 *
 * @param attempt - 1-based reconnect attempt.
 * @returns the delay before it, in ms.
 */
export function redisRetryDelayMs(attempt: number): number {
  return Math.min(attempt * 100, 1000);
}
