import type { Redis } from "ioredis";
import { keyPattern } from "../turns/measure-session-cost.js";

/** Redis's size: `INFO memory` `used_memory` (bytes) and `DBSIZE` (keys). */
export interface RedisSize {
  readonly usedMemoryBytes: number;
  readonly keys: number;
}

/** Keys of one pattern (ids replaced by `<session>`, `<uuid>`, `<n>`), from a sample. */
export interface KeyPatternSample {
  readonly pattern: string;
  readonly type: string;
  /** Keys of this pattern in the whole keyspace (from the SCAN). */
  readonly count: number;
  /** Keys whose `MEMORY USAGE` was read. */
  readonly sampled: number;
  /** Mean `MEMORY USAGE` of the sampled keys, in bytes. */
  readonly meanBytes: number;
  /** Sampled keys with a TTL. */
  readonly withTtl: number;
}

/**
 * `used_memory` and `DBSIZE` now.
 *
 * @param redis - a client of the deployment's Redis.
 */
export async function redisSize(redis: Redis): Promise<RedisSize> {
  const info = await redis.info("memory");
  return {
    usedMemoryBytes: Number(/used_memory:(\d+)/.exec(info)?.[1] ?? Number.NaN),
    keys: await redis.dbsize(),
  };
}

/**
 * Every key whose name matches `filter`, by one full `SCAN` (cheap enough for a
 * few hundred thousand keys: `COUNT 2000` per call).
 *
 * @param redis - a client of the deployment's Redis.
 * @param filter - which keys to keep (e.g. those of the measured sessions).
 */
export async function scanKeys(redis: Redis, filter: (key: string) => boolean): Promise<string[]> {
  const keys: string[] = [];
  let cursor = "0";
  do {
    const [next, batch] = await redis.scan(cursor, "COUNT", 2000);
    cursor = next;
    for (const key of batch) if (filter(key)) keys.push(key);
  } while (cursor !== "0");
  return keys;
}

/**
 * Groups `keys` by pattern and reads `MEMORY USAGE` (with `SAMPLES 0`: every
 * element of a list or hash is counted) of up to `perPattern` keys of each,
 * spread evenly over the pattern's keys.
 *
 * @param redis - a client of the deployment's Redis.
 * @param keys - from {@link scanKeys}.
 * @param perPattern - keys sampled per pattern (e.g. 2 000).
 * @returns one entry per pattern, largest total (count × mean) first.
 */
export async function sampleKeyPatterns(
  redis: Redis,
  keys: readonly string[],
  perPattern: number,
): Promise<KeyPatternSample[]> {
  const byPattern = new Map<string, string[]>();
  for (const key of keys) {
    const pattern = keyPattern(key);
    const list = byPattern.get(pattern) ?? [];
    list.push(key);
    byPattern.set(pattern, list);
  }
  const samples: KeyPatternSample[] = [];
  for (const [pattern, all] of byPattern) {
    const step = Math.max(1, Math.floor(all.length / perPattern));
    const chosen = all.filter((_, index) => index % step === 0).slice(0, perPattern);
    const pipeline = redis.pipeline();
    for (const key of chosen)
      pipeline.type(key).call("MEMORY", "USAGE", key, "SAMPLES", "0").pttl(key);
    const replies = (await pipeline.exec()) ?? [];
    let sampled = 0;
    let bytes = 0;
    let withTtl = 0;
    let type = "none";
    chosen.forEach((_, index) => {
      const keyType = String(replies[index * 3]?.[1]);
      if (keyType === "none") return; // expired between SCAN and TYPE
      type = keyType;
      sampled += 1;
      bytes += Number(replies[index * 3 + 1]?.[1] ?? 0);
      if (Number(replies[index * 3 + 2]?.[1] ?? -1) >= 0) withTtl += 1;
    });
    samples.push({
      pattern,
      type,
      count: all.length,
      sampled,
      meanBytes: sampled === 0 ? 0 : bytes / sampled,
      withTtl,
    });
  }
  return samples.sort((a, b) => b.count * b.meanBytes - a.count * a.meanBytes);
}
