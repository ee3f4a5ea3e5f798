import { agentKinds } from "@troupe/agents";
import { TroupeClient } from "@troupe/client";
import { DEFAULT_DEPLOYMENT_PREFIX } from "@troupe/protocol";
import { ActorHost, redisRetryDelayMs } from "@troupe/runtime";
import { Redis } from "ioredis";
import { pino } from "pino";
import { traceLogFields } from "@troupe/host/internal";
import {
  agentsOfExport,
  type AgentModuleContext,
  type AgentModuleExport,
} from "@troupe/host/internal";
import type { LocalServer } from "../local-servers/local-server.js";
import { startLocalNatsServer } from "../local-servers/start-local-nats-server.js";
import { startLocalRedisServer } from "../local-servers/start-local-redis-server.js";

/** Options of {@link startLocalCluster}. */
export interface LocalClusterOptions {
  /**
   * The agents to host, as an agent module exports them: an agent made with
   * `defineAgent`, an array of them, or a (possibly async) function of
   * {@link AgentModuleContext} returning either.
   */
  readonly agents: AgentModuleExport;
  /** Deployment prefix; default `"troupe"`. */
  readonly prefix?: string;
  /** Shards of the deployment; default 4 (a test needs few, and they start faster). */
  readonly shardCount?: number;
  /** Log level of the host (pino: `"debug"`, `"info"`, `"warn"`, …); default `"warn"`. */
  readonly logLevel?: string;
}

/**
 * A running local cluster: see {@link startLocalCluster}.
 *
 * Shape: `{ natsUrl, redisUrl, prefix, shardCount, agents, client, stop() }`,
 * and `AsyncDisposable` (`await using cluster = await startLocalCluster(…)`).
 */
export interface LocalCluster extends AsyncDisposable {
  /** Client URL of the started nats-server, e.g. `nats://127.0.0.1:41833`. */
  readonly natsUrl: string;
  /** Client URL of the started redis-server, e.g. `redis://127.0.0.1:39121`. */
  readonly redisUrl: string;
  readonly prefix: string;
  readonly shardCount: number;
  /** Names of the hosted agents. */
  readonly agents: readonly string[];
  /** A client of the cluster (closed by {@link LocalCluster.stop}). */
  readonly client: TroupeClient;
  /** Closes the client, stops the host, then the servers, and removes their data. Idempotent. */
  stop(): Promise<void>;
}

/**
 * Starts a throwaway Troupe cluster for a test, in this process: a real
 * `nats-server` (JetStream) and `redis-server` on free loopback ports with
 * their data in fresh temporary folders, one actor host serving `agents`, and
 * a {@link TroupeClient} of it. What `troupe dev` runs, minus the separate host
 * processes and the kept data.
 *
 * @deprecated Use `createTestDeployment` of `@troupe/testkit` (docs/decisions/0023): the
 *   same, plus containers when a container runtime answers, several hosts, and
 *   helpers (`sendAndWait`, `expectEvents`, approvals, a clock for durable
 *   timers). Projects made by `troupe init` before the test kit still use this;
 *   it keeps working.
 *
 * @param options - the agents, and optionally prefix, shard count and log level.
 * @returns the running cluster; call `stop()` (or `await using`) when done.
 * @throws ServerBinaryMissingError when `nats-server` or `redis-server` is not
 *   installed (`troupe dev` installs them; its message says how).
 * @throws LocalServerStartError when a server does not start.
 * @throws AgentModuleError when `agents` holds no agents made with `defineAgent`.
 * @example
 * ```ts
 * await using cluster = await startLocalCluster({ agents: myAgent });
 * const outcome = await cluster.client.sendAndWait("s1", "hello", { timeoutMs: 30_000 });
 * ```
 */
export async function startLocalCluster(options: LocalClusterOptions): Promise<LocalCluster> {
  const prefix = options.prefix ?? DEFAULT_DEPLOYMENT_PREFIX;
  const shardCount = options.shardCount ?? 4;
  const servers: LocalServer[] = [];
  let toolRedis: Redis | undefined;
  let host: ActorHost | undefined;
  let client: TroupeClient | undefined;
  const stopAll = async () => {
    await client?.close();
    await host?.stop();
    if (toolRedis !== undefined) await toolRedis.quit().catch(() => toolRedis?.disconnect());
    await Promise.all(servers.map((server) => server.stop()));
  };
  try {
    // Both at once; whichever started is stopped if the other fails.
    const [natsStart, redisStart] = await Promise.allSettled([
      startLocalNatsServer({ shardCount }),
      startLocalRedisServer(),
    ]);
    for (const start of [natsStart, redisStart]) {
      if (start.status === "fulfilled") servers.push(start.value);
    }
    if (natsStart.status === "rejected") throw natsStart.reason;
    if (redisStart.status === "rejected") throw redisStart.reason;
    const nats = natsStart.value;
    const redis = redisStart.value;
    toolRedis = new Redis(redis.url, { retryStrategy: redisRetryDelayMs });
    const context: AgentModuleContext = {
      redis: toolRedis,
      natsUrl: nats.url,
      redisUrl: redis.url,
      log: (line) => process.stderr.write(`${line}\n`),
    };
    const agents = await agentsOfExport(options.agents, context, "startLocalCluster agents");
    host = await ActorHost.start({
      nats: nats.url,
      redis: redis.url,
      kinds: agentKinds({ agents }),
      settings: { prefix, shardCount },
      logger: pino({ level: options.logLevel ?? "warn", mixin: traceLogFields }),
    });
    client = await TroupeClient.connect({ natsUrl: nats.url, prefix });
    let stopped: Promise<void> | undefined;
    const stop = () => (stopped ??= stopAll());
    return {
      natsUrl: nats.url,
      redisUrl: redis.url,
      prefix,
      shardCount,
      agents: agents.map((agent) => agent.name),
      client,
      stop,
      [Symbol.asyncDispose]: stop,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
