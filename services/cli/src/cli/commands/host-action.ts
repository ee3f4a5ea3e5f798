import { DEFAULT_SHARD_COUNT } from "@troupe/protocol";
import { agentKinds, type AgentDefinition } from "@troupe/agents";
import { redactUrl } from "@troupe/client";
import {
  type ActorHost,
  defaultHostId,
  redisRetryDelayMs,
  watchRedisConnection,
} from "@troupe/runtime";
import { readDeployment } from "../../admin/read-deployment.js";
import { asRedis } from "../../connection/as-redis.js";
import { connectHostNats } from "../../connection/connect-host-nats.js";
import { createRedisConnection } from "../../connection/create-redis-connection.js";
import { createHostLogger } from "../../connection/host-logger.js";
import { describeRedis } from "../../connection/redis-settings.js";
import { checkRedis } from "../../host/check-redis.js";
import { stderrRedisLogger } from "../../host/stderr-redis-logger.js";
import {
  DEMO_AGENT_MODULE,
  loadAgentModule,
  type AgentModuleContext,
} from "../../host/load-agents.js";
import { formatReadyLine } from "../../host/ready-line.js";
import { agentModels, type AgentModel } from "../../host/agent-models.js";
import { runHost } from "../../host/run-host.js";
import { HostHealth } from "../../host/host-health.js";
import { createHostHttpApp } from "../../host/host-http-app.js";
import {
  startHostMetricsEndpoint,
  type HostMetricsEndpoint,
} from "../../telemetry/host-metrics-endpoint.js";
import { serveHostHttp, type HostHttpServer } from "../../host/serve-host-http.js";
import { startTelemetry } from "../../telemetry/start-telemetry.js";
import { resolveConnection, type ConnectionFlags } from "../connection-settings.js";
import { streamSettings, type StreamFlags } from "../stream-options.js";

/** Options of `troupe host` (connection flags: see `ConnectionFlags`). */
export interface HostCommandOptions extends ConnectionFlags, StreamFlags {
  readonly agent?: string;
  readonly shards?: number;
  readonly concurrency?: number;
  readonly hostId?: string;
  /** `--health-port`: serve `/healthz` and `/readyz` (issue #17); absent: no endpoint. */
  readonly healthPort?: number;
  /**
   * `--no-metrics` (false): no `/metrics` on the health endpoint (issue #18);
   * metrics are on whenever there is a health port.
   */
  readonly metrics?: boolean;
  /** `--health-host`: the endpoint's address (default 127.0.0.1). */
  readonly healthHost?: string;
  /** `--drain-timeout`: the host's `drainTimeoutMs`. */
  readonly drainTimeout?: number;
  readonly json?: boolean;
  /** `--check`: see `checkHostCommand`. */
  readonly check?: boolean;
}

/**
 * The action of `troupe host` (loaded only when the command runs: it pulls in
 * the whole host, the AI SDK included).
 *
 * @param options - parsed flags.
 * @throws NatsUnreachableError / RedisUnreachableError naming the URL (password
 *   redacted), nats.js `AuthorizationError` for refused NATS credentials,
 *   ConnectionConfigError for bad connection settings, AgentModuleError for a bad module, ModelNotConfiguredError for an agent whose
 *   model's provider key is missing, ShardCountMismatchError for a wrong `--shards`.
 */
export async function runHostCommand(options: HostCommandOptions): Promise<void> {
  const connection = await resolveConnection(options);
  // Known before the start, for the telemetry resource (issue #18): the
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
  // The host's own connections carry the deployment's credentials and TLS (issue #17);
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
    agents = await loadAgentModule(agentModule, context);
    // A model whose provider key is missing stops the host now, not at the first message (issue #13).
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
  const names = agents.map((agent) => agent.name);
  process.stdout.write(
    options.json === true
      ? formatReadyLine({
          hostId: host.hostId,
          pid: process.pid,
          agents: names,
          models: Object.fromEntries(models.map(({ agent, model }) => [agent, model])),
          ...(healthServer === undefined ? {} : { healthUrl: healthServer.url }),
          ...(healthServer === undefined || metricsEndpoint === undefined
            ? {}
            : { metricsUrl: `${healthServer.url}/metrics` }),
        })
      : `troupe host ${host.hostId} (pid ${process.pid}) serves ` +
          `${models.map(({ agent, model }) => `${agent} (${model})`).join(", ")} ` +
          `on ${redactUrl(connection.natsUrl)} and ${describeRedis(connection.redis, redactUrl)}, ${shardCount} shards` +
          (healthServer === undefined ? ". " : `, health on ${healthServer.url}/readyz`) +
          (healthServer === undefined || metricsEndpoint === undefined
            ? ""
            : `, metrics on ${healthServer.url}/metrics`) +
          (healthServer === undefined ? "" : ". ") +
          "SIGTERM or Ctrl-C stops it gracefully.\n",
  );
}
