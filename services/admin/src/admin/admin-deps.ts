import type { JetStreamManager } from "@nats-io/jetstream";
import type { RedisConnection } from "@troupe/runtime";

/** Deployment prefix used when {@link AdminDeps.prefix} is not given. */
export { DEFAULT_DEPLOYMENT_PREFIX } from "@troupe/protocol";

/**
 * What the admin read functions need: read access to the deployment's Redis and
 * JetStream. Nothing here writes; every function is safe against a live cluster.
 *
 * Shape: `{ redis, jsm, prefix?, shardCount }`.
 */
export interface AdminDeps {
  /** ioredis client of the deployment's Redis. */
  readonly redis: RedisConnection;
  /** JetStream manager of the deployment's NATS server. */
  readonly jsm: JetStreamManager;
  /** Deployment prefix of Redis keys and stream names; default `"troupe"`. */
  readonly prefix?: string;
  /**
   * Shards of the deployment (1 to 4096). Read it with `readDeployment` when the
   * caller does not know it: a wrong count places actors on the wrong shard.
   */
  readonly shardCount: number;
  /**
   * Counts the deployment had before `shardCount` (`troupe shards
   * resize`): journal reads also look under an actor's shard numbers of then.
   */
  readonly earlierShardCounts?: readonly number[];
}
