/**
 * @troupe/host — a Troupe host process as a library, for your own `main.ts`
 * or for `troupe host`:
 *
 * - {@link startHostProcess}: everything `troupe host` does (settings from
 *   flags' names, the `TROUPE_*` environment, a config file or a running
 *   `troupe dev`; NATS and Redis connections with credentials and TLS;
 *   telemetry; the health and metrics endpoint; agent loading; graceful stop).
 * - The parts, for a process that assembles its own: {@link runHost},
 *   {@link loadAgents}, {@link resolveConnection}, {@link readConnectionConfig},
 *   {@link createRedisConnection}, {@link connectHostNats},
 *   {@link startTelemetry}, {@link HostHealth}, {@link createHostHttpApp},
 *   {@link serveHostHttp}, {@link startHostMetricsEndpoint}.
 * - The demo agent: {@link demoAgents}.
 * - {@link hostCommand}: the `troupe host` command (commander), which the
 *   `troupe` CLI mounts.
 *
 * @packageDocumentation
 */
export {
  startHostProcess,
  runHostCommand,
  type HostProcess,
  type HostProcessOptions,
  type HostCommandOptions,
} from "./process/host-action.js";
export { hostCommand } from "./process/host-command.js";
export { runHost, type RunHostOptions } from "./host/run-host.js";
export {
  loadAgents,
  loadAgentModule,
  agentsOfExport,
  DEMO_AGENT_MODULE,
  type AgentModuleContext,
  type AgentModuleExport,
} from "./host/load-agents.js";
export { agentModels, type AgentModel } from "./host/agent-models.js";
export { AgentModuleError } from "./host/agent-module-error.js";
export { RedisUnreachableError } from "./host/redis-unreachable-error.js";
export { checkNats } from "./host/check-nats.js";
export { checkRedis } from "./host/check-redis.js";
export {
  HostHealth,
  type HealthReportingHost,
  type HostPhase,
  type HostReadiness,
} from "./host/host-health.js";
export { createHostHttpApp, type MetricsScrape } from "./host/host-http-app.js";
export {
  serveHostHttp,
  DEFAULT_HEALTH_HOST,
  type HostHttpServer,
  type ServeHostHttpOptions,
} from "./host/serve-host-http.js";
export { formatReadyLine, parseReadyLine, type ReadyLine } from "./host/ready-line.js";
export {
  resolveConnection,
  DEFAULT_REDIS_URL,
  type ConnectionFlags,
  type ConnectionSettings,
  type NatsClientSettings,
  type SettingSource,
} from "./settings/connection-settings.js";
export { connectionOptions } from "./settings/connection-options.js";
export {
  streamOptions,
  streamSettings,
  type StreamFlags,
  type StreamSettings,
} from "./settings/stream-options.js";
export {
  connectionConfigSchema,
  readConnectionConfig,
  type ConnectionConfig,
} from "./connection/connection-config.js";
export { ConnectionConfigError } from "./connection/connection-config-error.js";
export { createRedisConnection } from "./connection/create-redis-connection.js";
export { connectHostNats } from "./connection/connect-host-nats.js";
export { createHostLogger } from "./connection/host-logger.js";
export type { RedisEndpoint, RedisSettings } from "./connection/redis-settings.js";
export {
  startTelemetry,
  type StartTelemetryOptions,
  type Telemetry,
} from "./telemetry/start-telemetry.js";
export {
  startHostMetricsEndpoint,
  type HostMetricsEndpoint,
  type HostMetricsEndpointOptions,
} from "./telemetry/host-metrics-endpoint.js";
export {
  demoAgents,
  demoModel,
  DEMO_AGENT_NAME,
  type DemoAgentsContext,
} from "./demo/demo-agents.js";
