import { RedisKeys } from "@troupe/protocol/internal";
import type { RedisConnection } from "@troupe/stores";
import { readShardCountState } from "./shard-count-state.js";
import { DEFAULT_DEPLOYMENT_PREFIX } from "@troupe/protocol";

/** Settings recorded for a deployment by its first host. Shape: `{ shardCount, earlierShardCounts? }`. */
export interface DeploymentRecord {
  /** Shards of the deployment, recorded once by the first host that started. */
  readonly shardCount: number;
  /**
   * Counts it had before `shardCount`, oldest first; present only once the
   * count was changed (`troupe shards resize`).
   */
  readonly earlierShardCounts?: readonly number[];
}

/**
 * Reads the deployment record (`<prefix>:deployment`, a hash the first host
 * writes with `HSETNX shardCount`; see `RedisMembershipStore.claimShardCount`).
 *
 * @param redis - ioredis client of the deployment's Redis.
 * @param prefix - deployment prefix; default `"troupe"`.
 * @returns `{ shardCount }`, or undefined when no host ever started under this
 *   prefix (or the stored value is not a positive whole number).
 * @example
 * const deployment = await readDeployment(redis);
 * if (deployment === undefined) throw new Error("no deployment under prefix troupe");
 * const status = await clusterStatus({ redis, jsm, shardCount: deployment.shardCount });
 */
export async function readDeployment(
  redis: RedisConnection,
  prefix: string = DEFAULT_DEPLOYMENT_PREFIX,
): Promise<DeploymentRecord | undefined> {
  const state = readShardCountState(await redis.hgetall(new RedisKeys(prefix).deployment()));
  if (state.shardCount === undefined) return undefined;
  return state.earlierShardCounts.length === 0
    ? { shardCount: state.shardCount }
    : { shardCount: state.shardCount, earlierShardCounts: state.earlierShardCounts };
}
