import type { RedisConnection } from "@troupe/runtime";
import type { RedisKeys } from "@troupe/protocol/internal";
import { DEFAULT_IDEMPOTENCY_RECORD_TTL_MS } from "./idempotency-record-store.js";
import type { ToolResultStore } from "./tool-result-store.js";

/**
 * Results longer than this many UTF-16 code units are written in pieces of
 * this size: one `SET` of an 8 MiB result copies all of it into
 * the socket in one stretch of the event loop, a piece of 512 Ki code units
 * takes a millisecond or two, with other work in between.
 */
export const TOOL_RESULT_WRITE_PIECE = 512 * 1024;

/** Options of {@link RedisToolResultStore}. */
export interface RedisToolResultStoreOptions {
  /** How long a full result is kept, in ms; default 7 days (604 800 000 ms), as idempotency records. */
  readonly ttlMs?: number;
}

/**
 * {@link ToolResultStore} on Redis: one string per result under
 * `<prefix>:tool-result:<ref>` (see `RedisKeys.toolResult`), with a TTL.
 *
 * @example
 * ```ts
 * const results = new RedisToolResultStore(redis, new RedisKeys("troupe"));
 * ```
 */
export class RedisToolResultStore implements ToolResultStore {
  readonly #ttlMs: number;

  /**
   * @param redis - connection.
   * @param keys - the deployment's key layout.
   * @param options - see {@link RedisToolResultStoreOptions}.
   */
  constructor(
    private readonly redis: RedisConnection,
    private readonly keys: RedisKeys,
    options: RedisToolResultStoreOptions = {},
  ) {
    this.#ttlMs = options.ttlMs ?? DEFAULT_IDEMPOTENCY_RECORD_TTL_MS;
  }

  /**
   * See {@link ToolResultStore.put}. A long result is written in pieces of
   * {@link TOOL_RESULT_WRITE_PIECE} (`SET`, then `APPEND`s; never splitting a
   * surrogate pair); the call's reference is published only after the last
   * piece, and a re-run's first `SET` starts the value again.
   *
   * @throws the Redis client's error when Redis is unreachable.
   */
  async put(ref: string, content: string): Promise<void> {
    const key = this.keys.toolResult(ref);
    let start = 0;
    do {
      let end = Math.min(content.length, start + TOOL_RESULT_WRITE_PIECE);
      const last = content.charCodeAt(end - 1);
      if (end < content.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
      const piece = content.slice(start, end);
      if (start === 0) await this.redis.set(key, piece, "PX", this.#ttlMs);
      else await this.redis.append(key, piece);
      start = end;
    } while (start < content.length);
  }

  /** See {@link ToolResultStore.get}. @throws the Redis client's error when Redis is unreachable. */
  async get(ref: string): Promise<string | undefined> {
    return readToolResult(this.redis, this.keys, ref);
  }
}

/**
 * Reads the full result of a tool call whose result reached the model
 * truncated (`resultRef` of the `tool.execute` output).
 *
 * @param redis - connection.
 * @param keys - the deployment's key layout.
 * @param ref - the `resultRef` (the call's idempotency key `<sessionId>/<runId>/<toolCallId>`).
 * @returns the full result text, or undefined when unknown or expired (after 7 days by default).
 * @throws the Redis client's error when Redis is unreachable.
 * @example
 * ```ts
 * const full = await readToolResult(redis, new RedisKeys("troupe"), output.resultRef);
 * ```
 */
export async function readToolResult(
  redis: RedisConnection,
  keys: RedisKeys,
  ref: string,
): Promise<string | undefined> {
  const content = await redis.get(keys.toolResult(ref));
  return content ?? undefined;
}
