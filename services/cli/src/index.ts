/**
 * @troupe/cli — the `troupe` command and what it runs on one machine.
 *
 * - **CLI** (`cli/`, `bin/troupe.mjs`): `troupe init | dev | host | send | chat | tail |
 *   approve | deny | answer | cancel | steer | inspect | status | replay`
 *   ({@link createProgram}).
 * - **Dev cluster** (`dev/`): {@link startDevCluster}, the main job behind `troupe dev`;
 *   {@link startLocalCluster} (deprecated: `@troupe/testkit`'s `createTestDeployment`),
 *   servers and one in-process host for a test.
 * - **Hosts** (`host/`): {@link runHost} (graceful on SIGTERM) and {@link loadAgents}
 *   for agent modules.
 * - **Demo agent** (`demo/`): {@link demoAgents}, with a read, an idempotent write
 *   and a non-idempotent write behind approval.
 * - **Local servers** (`local-servers/`): {@link startLocalNatsServer} and
 *   {@link startLocalRedisServer} run real `nats-server` (JetStream) and
 *   `redis-server` binaries, for the test harness and for `troupe dev`.
 *
 * The client SDK is its own package, `@troupe/client`. Everything else (admin
 * reads, renderers, dev-state files) is in `@troupe/cli/internal`, for Troupe's
 * own tests.
 *
 * @packageDocumentation
 */
export { createProgram } from "./cli/program.js";
export {
  startDevCluster,
  type DevCluster,
  type DevClusterOptions,
} from "./dev/start-dev-cluster.js";
export {
  startLocalCluster,
  type LocalCluster,
  type LocalClusterOptions,
} from "./dev/start-local-cluster.js";
export { DevAlreadyRunningError } from "./dev/dev-already-running-error.js";
export { runHost, type RunHostOptions } from "./host/run-host.js";
export { loadAgents, type AgentModuleContext, type AgentModuleExport } from "./host/load-agents.js";
export { AgentModuleError } from "./host/agent-module-error.js";
export { RedisUnreachableError } from "./host/redis-unreachable-error.js";
export {
  demoAgents,
  demoModel,
  DEMO_AGENT_NAME,
  type DemoAgentsContext,
} from "./demo/demo-agents.js";
export { LocalServerStartError } from "./local-servers/local-server-start-error.js";
export type { LocalServer } from "./local-servers/local-server.js";
export type { LocalServerOptions } from "./local-servers/local-server-options.js";
export { ServerBinaryMissingError } from "./local-servers/server-binary-missing-error.js";
export {
  startLocalNatsServer,
  type LocalNatsServer,
  type LocalNatsServerOptions,
} from "./local-servers/start-local-nats-server.js";
export {
  startLocalRedisServer,
  type LocalRedisServerOptions,
} from "./local-servers/start-local-redis-server.js";
