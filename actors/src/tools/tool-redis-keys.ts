import type { RedisKeys } from "../stores/redis-keys.js";

/**
 * Redis key of a tool call's fence: `<prefix>:fence:tool:<idempotencyKey>`, a
 * hash with `state`, `attempts`, `effectClass`, `result` (JSON), `createdAtMs`,
 * `startedAtMs`, `completedAtMs` and a TTL. (Shard fencing-token counters are
 * `<prefix>:fence:<shard>`; a shard is a number, so the two never collide.)
 *
 * @param keys - the deployment's key layout (its prefix).
 * @param idempotencyKey - `<sessionId>/<runId>/<toolCallId>`.
 * @example toolFenceKey(new RedisKeys("troupe"), "s1/r1/c1") // "troupe:fence:tool:s1/r1/c1"
 */
export function toolFenceKey(keys: RedisKeys, idempotencyKey: string): string {
  return `${keys.prefix}:fence:tool:${idempotencyKey}`;
}

/**
 * Redis key of the full result of a tool call whose result reached the model
 * truncated: `<prefix>:tool-result:<ref>`, a string (UTF-8) with a TTL. The
 * reference is the call's idempotency key.
 *
 * @param keys - the deployment's key layout (its prefix).
 * @param ref - the `resultRef` of a `tool.execute` output.
 * @example toolResultKey(new RedisKeys("troupe"), "s1/r1/c1") // "troupe:tool-result:s1/r1/c1"
 */
export function toolResultKey(keys: RedisKeys, ref: string): string {
  return `${keys.prefix}:tool-result:${ref}`;
}
