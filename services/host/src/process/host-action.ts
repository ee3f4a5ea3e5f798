import { DEFAULT_SHARD_COUNT } from "@troupe/protocol";
import { agentKinds, type AgentDefinition } from "@troupe/agents";
import { redactUrl } from "@troupe/client";
import {
  type ActorHost,
  defaultHostId,
  readDeployment,
  redisRetryDelayMs,
  watchRedisConnection,
} from "@troupe/runtime";
import { asRedis } from "../connection/as-redis.js";
import { connectHostNats } from "../connection/connect-host-nats.js";
import { createRedisConnection } from "../connection/create-redis-connection.js";
import { createHostLogger } from "../connection/host-logger.js";
import { describeRedis } from "../connection/redis-settings.js";
import { checkRedis } from "../host/check-redis.js";
import { stderrRedisLogger } from "../host/stderr-redis-logger.js";
import {
  DEMO_AGENT_MODULE,
  agentsOfExport,
  loadAgentModule,
  type AgentModuleContext,
  type AgentModuleExport,
} from "../host/load-agents.js";
import { formatReadyLine } from "../host/ready-line.js";
import { agentModels, type AgentModel } from "../host/agent-models.js";
import { runHost } from "../host/run-host.js";
import { HostHealth } from "../host/host-health.js";
import { createHostHttpApp } from "../host/host-http-app.js";
import {
  startHostMetricsEndpoint,
  type HostMetricsEndpoint,
} from "../telemetry/host-metrics-endpoint.js";
import { serveHostHttp, type HostHttpServer } from "../host/serve-host-http.js";
import { startTelemetry } from "../telemetry/start-telemetry.js";
import {
  resolveConnection,
  type ConnectionFlags,
  type ConnectionSettings,
} from "../settings/connection-settings.js";
import { streamSettings, type StreamFlags } from "../settings/stream-options.js";

/**
 * Options of {@link startHostProcess}: the connection settings of
 * `resolveConnection` (flags' names; unset ones come from the environment
 * `TROUPE_*`, the config file, a running `troupe dev`, then the defaults), the
 * stream settings, and the host's own.
 */
export interface HostProcessOptions extends ConnectionFlags, StreamFlags {
  /**
   * The agents to serve, as an agent module exports them (agents made with
   * `defineAgent`, or a factory of them). Takes precedence over `agent`.
   */
  readonly agents?: AgentModuleExport;
  /** Agent module (path or package name) to load when `agents` is absent; default: the running `troupe dev`'s, else the demo agent. */
  readonly agent?: string;
  /** Shards of the deployment (1 to 4096); default: the recorded count, else 64. */
  readonly shards?: number;
  /** Actors processing a message at once; default 256. */
  readonly concurrency?: number;
  /** Unique id of this host; default `host-<pid>-<8 hex>`. */
  readonly hostId?: string;
  /** Serve `/healthz` and `/readyz` (and `/metrics`) on this port; absent: no endpoint. */
  readonly healthPort?: number;
  /** `false`: no `/metrics` on the health endpoint; metrics are on whenever there is a health port. */
  readonly metrics?: boolean;
  /** The health endpoint's address; default 127.0.0.1. */
  readonly healthHost?: string;
  /** The host's `drainTimeoutMs` on a graceful stop, in ms. */
  readonly drainTimeout?: number;
}

/** A running host process; see {@link startHostProcess}. */
export interface HostProcess {
  /** The actor host (stop it with `host.stop()`: drains, releases shard leases, closes the connections). */
  readonly host: ActorHost;
  /** The model each agent uses, by agent name. */
  readonly models: readonly AgentModel[];
  /** Shards of the deployment the host joined. */
  readonly shardCount: number;
  /** The servers it connected to and where the settings came from. */
  readonly connection: ConnectionSettings;
  /** e.g. `http://127.0.0.1:9464`, when there is a health port. */
  readonly healthUrl?: string;
  /** The Prometheus endpoint, when there is a health port and metrics are on. */
  readonly metricsUrl?: string;
}

/** Options of `troupe host` (connection flags: see `ConnectionFlags`). */
export interface HostCommandOptions extends Omit<HostProcessOptions, "agents"> {
  readonly json?: boolean;
  /** `--check`: see `checkHostCommand`. */
  readonly check?: boolean;
}

/**
 * Starts a production host process in this process, as `troupe host` does:
 * resolves the connection settings, starts telemetry (OpenTelemetry from the
 * `OTEL_*` environment; nothing when unset) and, with a health port, the
 * health and metrics endpoint; checks Redis; opens the host's NATS and Redis
 * connections (credentials and TLS from the settings); loads the agents and
 * checks each model's provider key; joins the deployment with its recorded
 * shard count and starts the host (graceful on SIGTERM/SIGINT). Everything it
 * opened is closed when the host stops, or when starting fails.
 *
 * @param options - see {@link HostProcessOptions}; `{}` serves the demo agent
 *   on the servers the environment (or a running `troupe dev`) names.
 * @returns the running host, its models, shard count and endpoints.
 * @throws NatsUnreachableError / RedisUnreachableError naming the URL (password
 *   redacted), nats.js `AuthorizationError` for refused NATS credentials,
 *   ConnectionConfigError for bad connection settings, AgentModuleError for a
 *   bad module, ModelNotConfiguredError for an agent whose model's provider
 *   key is missing, ShardCountMismatchError for a wrong `shards`.
 * @example
 * // main.ts of your own host process
 * import { startHostProcess } from "@troupe/host";
 * import { supportAgent } from "./agent.js";
 * const { host } = await startHostProcess({ agents: [supportAgent], healthPort: 9464 });
 * console.log(`serving as ${host.hostId}`);
 */
export async function startHostProcess(options: HostProcessOptions = {}): Promise<HostProcess> {
  const connection = await resolveConnection(options);
  // Known before the start, for the telemetry resource: the
  // host's own default, `host-<pid>-<8 hex>`.
  const hostId = options.hostId ?? defaultHostId();
  // Liveness answers from before the start (which waits for the shards); readiness once it ran.
  const health = new HostHealth();
  // The meter provider of /metrics is registered first, before the host
  // creates its instruments and before the OpenTelemetry SDK (which then
  // registers no meter provider of its own: decision 0038).
  const metricsEndpoint: HostMetricsEndpoint | undefined =
    options.healthPort === undefined || options.metrics === false
      ? undefined
      : startHostMetricsEndpoint({ hostId });
  // OpenTelemetry from the OTEL_* environment (nothing when unset), flushed after a graceful stop.
  const telemetry = startTelemetry({ serviceName: "troupe-host", hostId });
  const healthServer: HostHttpServer | undefined =
    options.healthPort === undefined
      ? undefined
      : await serveHostHttp({
          app: createHostHttpApp(health, metricsEndpoint),
          port: options.healthPort,
          ...(options.healthHost === undefined ? {} : { host: options.healthHost }),
        });
  await checkRedis(connection.redis);
  // Without --agent, join a running troupe dev with the agents it serves.
  const agentModule =
    options.agent ??
    (connection.source === "troupe dev" ? connection.dev?.agentModule : undefined) ??
    DEMO_AGENT_MODULE;
  // The host's own connections carry the deployment's credentials and TLS;
  // the host does not own them, so they are closed after it stopped.
  const nats = await connectHostNats(connection.nats, options.hostId ?? "troupe-host");
  const hostRedis = createRedisConnection(connection.redis, {
    enableAutoPipelining: true,
    maxRetriesPerRequest: 2,
    retryStrategy: redisRetryDelayMs,
  });
  const toolRedis = createRedisConnection(connection.redis, { retryStrategy: redisRetryDelayMs });
  const logger = createHostLogger();
  watchRedisConnection(hostRedis, logger, "host");
  watchRedisConnection(toolRedis, stderrRedisLogger("troupe host"), "tools");
  const closeConnections = async () => {
    await nats.close().catch(() => undefined);
    hostRedis.disconnect();
    toolRedis.disconnect();
  };
  let host: ActorHost;
  let agents: AgentDefinition[];
  let models: AgentModel[];
  let shardCount: number;
  try {
    const context: AgentModuleContext = {
      redis: asRedis(toolRedis),
      natsUrl: connection.natsUrl,
      redisUrl: connection.redisUrl,
      log: (line) => process.stderr.write(`${line}\n`),
    };
    agents =
      options.agents === undefined
        ? await loadAgentModule(agentModule, context)
        : await agentsOfExport(options.agents, context, "the agents option");
    // A model whose provider key is missing stops the host now, not at the first message.
    models = agentModels(agents, process.env);
    shardCount =
      options.shards ??
      (await readDeployment(toolRedis, connection.prefix))?.shardCount ??
      DEFAULT_SHARD_COUNT;
    host = await runHost({
      nats,
      redis: hostRedis,
      logger,
      kinds: agentKinds({ agents }),
      settings: {
        prefix: connection.prefix,
        shardCount,
        ...(options.concurrency === undefined ? {} : { maxConcurrency: options.concurrency }),
        hostId,
        ...streamSettings(options),
        ...(options.drainTimeout === undefined ? {} : { drainTimeoutMs: options.drainTimeout }),
      },
      onStopped: async () => {
        await toolRedis.quit().catch(() => undefined);
        await hostRedis.quit().catch(() => undefined);
        await nats.close().catch(() => undefined);
        await healthServer?.close();
        await metricsEndpoint?.shutdown();
        await telemetry.shutdown();
      },
    });
    health.started(host);
  } catch (error) {
    // Open connections (and the health server) would keep the process alive after the error.
    await closeConnections();
    await healthServer?.close();
    await metricsEndpoint?.shutdown();
    await telemetry.shutdown();
    throw error;
  }
  return {
    host,
    models,
    shardCount,
    connection,
    ...(healthServer === undefined ? {} : { healthUrl: healthServer.url }),
    ...(healthServer === undefined || metricsEndpoint === undefined
      ? {}
      : { metricsUrl: `${healthServer.url}/metrics` }),
  };
}

/**
 * The action of `troupe host` (loaded only when the command runs: it pulls in
 * the whole host, the AI SDK included): {@link startHostProcess}, then the
 * ready line on stdout (JSON with `--json`, which `troupe dev` reads).
 *
 * @param options - parsed flags.
 * @throws what {@link startHostProcess} throws.
 */
export async function runHostCommand(options: HostCommandOptions): Promise<void> {
  const { host, models, shardCount, connection, healthUrl, metricsUrl } =
    await startHostProcess(options);
  process.stdout.write(
    options.json === true
      ? formatReadyLine({
          hostId: host.hostId,
          pid: process.pid,
          agents: models.map(({ agent }) => agent),
          models: Object.fromEntries(models.map(({ agent, model }) => [agent, model])),
          ...(healthUrl === undefined ? {} : { healthUrl }),
          ...(metricsUrl === undefined ? {} : { metricsUrl }),
        })
      : `troupe host ${host.hostId} (pid ${process.pid}) serves ` +
          `${models.map(({ agent, model }) => `${agent} (${model})`).join(", ")} ` +
          `on ${redactUrl(connection.natsUrl)} and ${describeRedis(connection.redis, redactUrl)}, ${shardCount} shards` +
          (healthUrl === undefined ? ". " : `, health on ${healthUrl}/readyz`) +
          (metricsUrl === undefined ? "" : `, metrics on ${metricsUrl}`) +
          (healthUrl === undefined ? "" : ". ") +
          "SIGTERM or Ctrl-C stops it gracefully.\n",
  );
}
