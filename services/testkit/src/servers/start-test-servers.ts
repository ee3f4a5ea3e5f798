import type { LocalNatsServer, LocalServer } from "@troupe/dev";
import { startContainerTestServers } from "./start-container-test-servers.js";
import { startLocalTestServers } from "./start-local-test-servers.js";
import { resolveTestServersProvider, type TestServersProvider } from "./test-servers-provider.js";

/** Options of {@link startTestServers}. */
export interface TestServersOptions {
  /** Inbox shard count of the NATS subject mapping; default 64. */
  readonly shardCount?: number | undefined;
  /** Run Redis with an append-only file fsynced every second; default `false` (no persistence). */
  readonly redisAppendOnly?: boolean | undefined;
  /** Force a provider; default: `TROUPE_TEST_SERVERS` (`containers`, `local` or `auto`), else containers when reachable. */
  readonly provider?: TestServersProvider | undefined;
  /** How long a container may take to become ready, in ms; default 60 000 ms (image pulls). */
  readonly containerStartupTimeoutMs?: number | undefined;
  /** Labels of the containers; default `{ "troupe.test": "true" }`. */
  readonly containerLabels?: Readonly<Record<string, string>> | undefined;
  /**
   * Name prefix of the local servers' temporary data folders in `os.tmpdir()`
   * (`<prefix>nats-XXXXXX`, `<prefix>redis-XXXXXX`); default `"troupe-test-"`.
   */
  readonly dataDirPrefix?: string | undefined;
}

/**
 * A real NATS JetStream server and a real Redis server for one suite.
 *
 * Shape: `{ natsUrl, redisUrl, shardCount, provider, local?, stop() }`, and
 * `AsyncDisposable`, so `await using servers = await startTestServers()` stops
 * them when the block ends.
 */
export interface TestServers extends AsyncDisposable {
  /** Client URL of the NATS server, for example `nats://127.0.0.1:40211`. */
  readonly natsUrl: string;
  /** Client URL of the Redis server, for example `redis://127.0.0.1:38893`. */
  readonly redisUrl: string;
  /** Inbox shard count the NATS server's subject mapping uses. */
  readonly shardCount: number;
  /** Where the servers came from. */
  readonly provider: TestServersProvider;
  /** The processes behind the URLs, when `provider` is `"local"`. */
  readonly local?: { readonly nats: LocalNatsServer; readonly redis: LocalServer } | undefined;
  /** Stops both servers and removes their data. Safe to call more than once. */
  stop(): Promise<void>;
}

/**
 * Starts isolated NATS (JetStream, Troupe's inbox subject mapping) and Redis
 * servers for one suite: containers (`nats:2.10`, `redis:7`) when a container
 * runtime is reachable, otherwise the local binaries on free loopback ports in
 * temporary folders (the one copy of this choice; the repository's
 * test harness and `createTestDeployment` both use it).
 *
 * @param options - See {@link TestServersOptions}.
 * @returns The running servers.
 * @throws `ServerBinaryMissingError` (from `@troupe/cli`) when neither a
 *   container runtime nor the binaries are available, `LocalServerStartError` or
 *   a testcontainers error when a server does not start.
 *
 * @example
 * ```ts
 * test("a message round-trips", async () => {
 *   await using servers = await startTestServers();
 *   const connection = await connect({ servers: servers.natsUrl });
 *   // ...
 * });
 * ```
 */
export async function startTestServers(options: TestServersOptions = {}): Promise<TestServers> {
  const shardCount = options.shardCount ?? 64;
  const redisAppendOnly = options.redisAppendOnly ?? false;
  const provider = options.provider ?? (await resolveTestServersProvider());

  if (provider === "containers") {
    const containers = await startContainerTestServers({
      shardCount,
      redisAppendOnly,
      startupTimeoutMs: options.containerStartupTimeoutMs ?? 60_000,
      labels: options.containerLabels,
    });
    return withDisposal({
      natsUrl: containers.natsUrl,
      redisUrl: containers.redisUrl,
      shardCount,
      provider,
      stop: once(() => containers.stop()),
    });
  }
  const local = await startLocalTestServers({
    shardCount,
    redisAppendOnly,
    dataDirPrefix: options.dataDirPrefix,
  });
  return withDisposal({
    natsUrl: local.nats.url,
    redisUrl: local.redis.url,
    shardCount,
    provider,
    local: { nats: local.nats, redis: local.redis },
    stop: once(() => local.stop()),
  });
}

function withDisposal(servers: Omit<TestServers, typeof Symbol.asyncDispose>): TestServers {
  return { ...servers, [Symbol.asyncDispose]: () => servers.stop() };
}

function once(stop: () => Promise<void>): () => Promise<void> {
  let stopping: Promise<void> | undefined;
  return async () => {
    stopping ??= stop();
    await stopping;
  };
}
