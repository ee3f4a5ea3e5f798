/**
 * `@troupe/services`: Troupe's runnable entry points (the `troupe` CLI, the client
 * SDK) and what they need to run on one machine.
 *
 * Available so far: local servers. {@link startLocalNatsServer} and
 * {@link startLocalRedisServer} run real `nats-server` (JetStream) and
 * `redis-server` binaries on free loopback ports in temporary folders, for the
 * test harness and for `troupe dev`. See `local-servers/README.md`.
 *
 * @packageDocumentation
 */
export {
  findServerBinary,
  serverSearchDirectories,
  type FindServerBinaryOptions,
} from "./local-servers/find-server-binary.js";
export { findFreePort } from "./local-servers/find-free-port.js";
export { LocalServerStartError } from "./local-servers/local-server-start-error.js";
export type { LocalServer } from "./local-servers/local-server.js";
export type { LocalServerOptions } from "./local-servers/local-server-options.js";
export {
  natsServerMaxPayloadBytes,
  renderNatsServerConfig,
  type NatsServerConfigOptions,
} from "./local-servers/nats-server-config.js";
export {
  renderRedisServerConfig,
  type RedisServerConfigOptions,
} from "./local-servers/redis-server-config.js";
export { ServerBinaryMissingError } from "./local-servers/server-binary-missing-error.js";
export {
  serverInstallHint,
  serverInstallLinks,
  type ServerInstallHintOptions,
} from "./local-servers/server-install-hint.js";
export {
  startLocalNatsServer,
  type LocalNatsServer,
  type LocalNatsServerOptions,
} from "./local-servers/start-local-nats-server.js";
export {
  startLocalRedisServer,
  type LocalRedisServerOptions,
} from "./local-servers/start-local-redis-server.js";
export { runHost, type RunHostOptions } from "./host/run-host.js";
