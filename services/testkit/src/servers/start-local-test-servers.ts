import {
  startLocalNatsServer,
  startLocalRedisServer,
  type LocalNatsServer,
  type LocalServer,
} from "@troupe/dev";

/** Options of {@link startLocalTestServers}. */
export interface LocalTestServersOptions {
  /** Inbox shard count of the NATS subject mapping. */
  readonly shardCount: number;
  /** Run Redis with an append-only file fsynced every second. */
  readonly redisAppendOnly: boolean;
  /**
   * Name prefix of the temporary data folders in `os.tmpdir()`: NATS's is
   * `<prefix>nats-XXXXXX`, Redis's `<prefix>redis-XXXXXX`; default `"troupe-test-"`.
   */
  readonly dataDirPrefix?: string | undefined;
}

/** The two local servers of one suite. */
export interface LocalTestServers {
  readonly nats: LocalNatsServer;
  readonly redis: LocalServer;
  /** Stops both servers and removes their data folders. */
  stop(): Promise<void>;
}

/**
 * Starts `nats-server` and `redis-server` binaries side by side on free loopback
 * ports, in fresh data folders named `<dataDirPrefix>nats-…` and
 * `<dataDirPrefix>redis-…` (the folder's path is on each server's command line,
 * so a leftover server can be found by it). If one fails to start, the other is stopped before
 * the error is rethrown.
 *
 * @param options - See {@link LocalTestServersOptions}.
 * @returns Both servers.
 * @throws `ServerBinaryMissingError` or `LocalServerStartError` from `@troupe/cli`.
 */
export async function startLocalTestServers(
  options: LocalTestServersOptions,
): Promise<LocalTestServers> {
  const prefix = options.dataDirPrefix ?? "troupe-test-";
  const [nats, redis] = await Promise.allSettled([
    startLocalNatsServer({
      shardCount: options.shardCount,
      dataDirPrefix: `${prefix}nats-`,
    }),
    startLocalRedisServer({
      appendOnly: options.redisAppendOnly,
      dataDirPrefix: `${prefix}redis-`,
    }),
  ]);
  if (nats.status === "rejected" || redis.status === "rejected") {
    await Promise.all([
      nats.status === "fulfilled" ? nats.value.stop() : undefined,
      redis.status === "fulfilled" ? redis.value.stop() : undefined,
    ]);
    throw nats.status === "rejected" ? nats.reason : (redis as PromiseRejectedResult).reason;
  }
  return {
    nats: nats.value,
    redis: redis.value,
    async stop() {
      await Promise.all([nats.value.stop(), redis.value.stop()]);
    },
  };
}
