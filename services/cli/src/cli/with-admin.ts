import { DEFAULT_SHARD_COUNT } from "@troupe/protocol";
import { jetstreamManager, type JetStreamManager } from "@nats-io/jetstream";
import type { NatsConnection } from "@nats-io/transport-node";
import type { Redis } from "ioredis";
import { redisRetryDelayMs, watchRedisConnection, readDeployment } from "@troupe/runtime";
import { connectNats } from "@troupe/client/internal";
import {
  asRedis,
  createRedisConnection,
  checkRedis,
  stderrRedisLogger,
} from "@troupe/host/internal";
import {
  resolveConnection,
  type ConnectionFlags,
  type ConnectionSettings,
} from "@troupe/host/internal";

/** What the admin commands (`inspect`, `status`, `replay`) read with. */
export interface AdminConnection {
  readonly settings: ConnectionSettings;
  readonly nats: NatsConnection;
  readonly jsm: JetStreamManager;
  readonly redis: Redis;
  /** Recorded shard count of the deployment (64 when none was recorded yet). */
  readonly shardCount: number;
  /** Counts the deployment had before `shardCount` (docs/decisions/0035). */
  readonly earlierShardCounts: readonly number[];
}

/**
 * Connects to the deployment's NATS and Redis (flags, environment, running
 * `troupe dev`, defaults), runs `body`, and closes both.
 *
 * @throws NatsUnreachableError / RedisUnreachableError naming the URL.
 */
export async function withAdmin<T>(
  flags: ConnectionFlags,
  body: (admin: AdminConnection) => Promise<T>,
): Promise<T> {
  const settings = await resolveConnection(flags);
  if (settings.note !== undefined) process.stderr.write(`note: ${settings.note}\n`);
  await checkRedis(settings.redis);
  const nats = await connectNats({ ...settings.nats, name: "troupe-cli" });
  const redis = asRedis(
    createRedisConnection(settings.redis, {
      maxRetriesPerRequest: 1,
      retryStrategy: redisRetryDelayMs,
    }),
  );
  watchRedisConnection(redis, stderrRedisLogger("troupe"), "admin");
  try {
    const jsm = await jetstreamManager(nats);
    const deployment = await readDeployment(redis, settings.prefix);
    const shardCount = deployment?.shardCount ?? DEFAULT_SHARD_COUNT;
    const earlierShardCounts = deployment?.earlierShardCounts ?? [];
    return await body({ settings, nats, jsm, redis, shardCount, earlierShardCounts });
  } finally {
    redis.disconnect();
    await nats.close();
  }
}
