import { createHash } from "node:crypto";
import type { RedisConnection } from "./redis-connection.js";

/**
 * A Lua script run with `EVALSHA`, loaded on first use and reloaded after a
 * `NOSCRIPT` reply (for example after the Redis server restarted).
 */
export class RedisScript {
  readonly #source: string;
  readonly #sha: string;

  constructor(source: string) {
    this.#source = source;
    this.#sha = createHash("sha1").update(source).digest("hex");
  }

  /**
   * Runs the script.
   *
   * @param redis - connection.
   * @param keys - `KEYS`.
   * @param args - `ARGV` (numbers are sent as decimal strings, buffers as bytes).
   * @returns the script's reply as ioredis decodes it.
   */
  async run(
    redis: RedisConnection,
    keys: readonly string[],
    args: readonly (string | number | Buffer | Uint8Array)[],
  ): Promise<unknown> {
    const argv = args.map<string | number | Buffer>((value) =>
      value instanceof Uint8Array && !Buffer.isBuffer(value) ? Buffer.from(value) : value,
    );
    try {
      return await redis.evalsha(this.#sha, keys.length, ...keys, ...argv);
    } catch (error) {
      if (error instanceof Error && error.message.startsWith("NOSCRIPT")) {
        return redis.eval(this.#source, keys.length, ...keys, ...argv);
      }
      throw error;
    }
  }
}
