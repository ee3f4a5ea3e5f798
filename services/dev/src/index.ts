/**
 * @troupe/dev — real servers on one machine, for development and tests:
 *
 * - {@link startLocalNatsServer} and {@link startLocalRedisServer}: real
 *   `nats-server` (JetStream) and `redis-server` binaries on free loopback
 *   ports, stopped with the process that started them.
 * - {@link startDevCluster}: the cluster behind `troupe dev` (servers, host
 *   processes restarted when they die, the dev state file other commands read).
 * - {@link startLocalCluster} (deprecated: `@troupe/testkit`'s
 *   `createTestDeployment`): servers and one in-process host for a test.
 *
 * @packageDocumentation
 */
export {
  startDevCluster,
  type DevCluster,
  type DevClusterOptions,
  type DevGateway,
} from "./dev/start-dev-cluster.js";
export type { DevHostProcess, HostCommand } from "./dev/dev-host-process.js";
export { DevAlreadyRunningError } from "./dev/dev-already-running-error.js";
export { DevNotRunningError } from "./dev/dev-not-running-error.js";
export { HostStartError } from "./dev/host-start-error.js";
export { stopDev } from "./dev/stop-dev.js";
export {
  startLocalCluster,
  type LocalCluster,
  type LocalClusterOptions,
} from "./dev/start-local-cluster.js";
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
export {
  findServerBinary,
  serverSearchDirectories,
  type FindServerBinaryOptions,
} from "./local-servers/find-server-binary.js";
export { findFreePort } from "./local-servers/find-free-port.js";
