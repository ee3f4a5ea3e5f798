import { TroupeError } from "@troupe/protocol";

/**
 * The deployment's Redis holds keys in the earlier layout (key layout
 * 1: a shard's keys without a hash tag, `<p>:fence:<shard>`, `<p>:actor:<address>`).
 * A host of layout 2 would not see them: it refuses to start, and
 * `troupe migrate redis-keys` moves a stopped deployment to layout 2
 * (decision 0031).
 *
 * Code `redis_key_layout`, not retryable; `details`: `{ prefix, legacyShards }`.
 */
export class RedisKeyLayoutError extends TroupeError {
  constructor(
    readonly prefix: string,
    readonly legacyShards: readonly number[],
  ) {
    super(
      "redis_key_layout",
      `deployment "${prefix}" has Redis keys in the layout without hash tags (shards ${legacyShards
        .slice(0, 5)
        .join(
          ", ",
        )}${legacyShards.length > 5 ? ", …" : ""}); stop every host of the old version and ` +
        `run \`troupe migrate redis-keys --prefix ${prefix}\`, then start the hosts again`,
      { retryable: false, details: { prefix, legacyShards: [...legacyShards] } },
    );
    this.name = "RedisKeyLayoutError";
  }
}
