import { jetstreamManager } from "@nats-io/jetstream";
import { agentKinds, type AgentDefinition } from "@troupe/agents";
import { connectNats } from "@troupe/client/internal";
import { resolveDeployment } from "@troupe/client";
import type { ConsoleInspector } from "@troupe/gateway";
import { DEFAULT_SHARD_COUNT } from "@troupe/protocol";
import { redisRetryDelayMs, readDeployment } from "@troupe/runtime";
import {
  asRedis,
  createRedisConnection,
  DEMO_AGENT_MODULE,
  loadAgentModule,
} from "@troupe/host/internal";
import type { NatsClientSettings, RedisSettings } from "@troupe/host/internal";
import type { AdminDeps } from "@troupe/admin/internal";
import {
  clusterStatus,
  inspectActor,
  listDeadLetters,
  replayActorCommand,
} from "@troupe/admin/internal";

/** Options of {@link openConsoleInspector}. */
export interface ConsoleInspectorOptions {
  readonly natsUrl: string;
  readonly redisUrl: string;
  /** NATS credentials and TLS (docs/decisions/0033); default: `natsUrl` alone. */
  readonly nats?: NatsClientSettings;
  /** Redis mode, ACL user and TLS (docs/decisions/0033); default: `redisUrl` alone. */
  readonly redis?: RedisSettings;
  readonly prefix: string;
  /**
   * Agent module whose kinds a replay runs (the hosts' module); default: the
   * running `troupe dev`'s module, else the demo agent — as `troupe replay`.
   */
  readonly agentModule?: string;
}

/** A {@link ConsoleInspector} holding its own Redis and NATS connections. */
export interface OpenConsoleInspector extends ConsoleInspector {
  /** Closes both connections. */
  close(): Promise<void>;
}

/**
 * The gateway's console views (docs/decisions/0029) over the admin functions of
 * `troupe inspect`, `troupe status`, `troupe deadletters` and `troupe replay`:
 * read-only, every answer plain JSON. The shard count is read from the
 * deployment record at each call (64 when none was recorded yet); a replay
 * runs the kinds of the agent module the hosts serve, loaded once.
 *
 * @param options - see {@link ConsoleInspectorOptions}.
 * @returns the inspector; close it after the gateway.
 * @throws NatsUnreachableError naming the URL.
 */
export async function openConsoleInspector(
  options: ConsoleInspectorOptions,
): Promise<OpenConsoleInspector> {
  const nats = await connectNats({
    ...(options.nats ?? { natsUrl: options.natsUrl }),
    name: "troupe-gateway-console",
  });
  const connection = createRedisConnection(
    options.redis ?? { mode: "standalone", url: options.redisUrl },
    { maxRetriesPerRequest: 1, retryStrategy: redisRetryDelayMs, lazyConnect: false },
  );
  const redis = asRedis(connection);
  // A Redis outage surfaces as a failed request (500 on that route), never as a crash.
  redis.on("error", () => undefined);
  const jsm = await jetstreamManager(nats);
  const deps = async (): Promise<AdminDeps> => ({
    redis,
    jsm,
    prefix: options.prefix,
    shardCount: (await readDeployment(redis, options.prefix))?.shardCount ?? DEFAULT_SHARD_COUNT,
  });
  let agents: Promise<AgentDefinition[]> | undefined;
  const servedAgents = () => {
    agents ??= (async () => {
      const module =
        options.agentModule ??
        (await resolveDeployment({ natsUrl: options.natsUrl, prefix: options.prefix })).dev
          ?.agentModule ??
        DEMO_AGENT_MODULE;
      return await loadAgentModule(module, {
        redis,
        natsUrl: options.natsUrl,
        redisUrl: options.redisUrl,
        log: () => undefined,
      });
    })().catch((error: unknown) => {
      agents = undefined;
      throw error;
    });
    return agents;
  };
  return {
    inspectActor: async (address) => await inspectActor(await deps(), address),
    clusterStatus: async () => await clusterStatus(await deps()),
    deadLetters: async (limit) => await listDeadLetters({ jsm, prefix: options.prefix, limit }),
    replayActor: async (address) => {
      const report = await replayActorCommand(
        { ...(await deps()), nats, kinds: agentKinds({ agents: await servedAgents() }) },
        address,
      );
      // As `troupe replay --json`: `compared: false` when there was nothing to compare.
      const compared = report.storedGeneration !== undefined || report.messagesReplayed > 0;
      return { ...report, compared };
    },
    close: async () => {
      redis.disconnect();
      await nats.close().catch(() => undefined);
    },
  };
}
