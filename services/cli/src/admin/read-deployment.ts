import { RedisKeys } from "@troupe/protocol/internal";
import type { RedisConnection } from "@troupe/runtime";
import { DEFAULT_DEPLOYMENT_PREFIX } from "./admin-deps.js";

/** Settings recorded for a deployment by its first host. Shape: `{ shardCount }`. */
export interface DeploymentRecord {
  /** Shards of the deployment, recorded once by the first host that started. */
  readonly shardCount: number;
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
  const value = await redis.hget(new RedisKeys(prefix).deployment(), "shardCount");
  if (value === null) return undefined;
  const shardCount = Number(value);
  return Number.isInteger(shardCount) && shardCount > 0 ? { shardCount } : undefined;
}
