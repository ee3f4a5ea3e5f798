import { TroupeError } from "@troupe/protocol";

/**
 * The host was started with a shard count other than the one recorded for the
 * deployment on its first start. Shard counts are fixed per deployment: changing
 * it would move actors between shards while other hosts still own them.
 */
export class ShardCountMismatchError extends TroupeError {
  constructor(
    readonly configured: number,
    readonly recorded: number,
  ) {
    super(
      "shard_count_mismatch",
      `this host was started with shardCount ${configured}, but the deployment was created with ${recorded}; ` +
        `start it with shardCount ${recorded} (or use a new deployment prefix)`,
      { retryable: false, details: { configured, recorded } },
    );
    this.name = "ShardCountMismatchError";
  }
}
