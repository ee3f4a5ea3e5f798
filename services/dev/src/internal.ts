/**
 * @troupe/dev/internal — every module of the package, for the `troupe` command
 * and Troupe's own tests. Not covered by semantic versioning.
 *
 * @packageDocumentation
 */
export * from "./dev/check-agent-module-process.js";
export * from "./dev/dev-already-running-error.js";
export * from "./dev/dev-host-process.js";
export * from "./dev/dev-lock.js";
export * from "./dev/dev-not-running-error.js";
export * from "./dev/ensure-server-binaries.js";
export * from "./dev/format-host-log-line.js";
export * from "./dev/host-start-error.js";
export * from "./dev/is-port-free.js";
export * from "./dev/start-dev-cluster.js";
export * from "./dev/start-local-cluster.js";
export * from "./dev/stop-dev.js";
export * from "./local-servers/child-process-guard.js";
export * from "./local-servers/find-free-port.js";
export * from "./local-servers/find-server-binary.js";
export * from "./local-servers/local-server-options.js";
export * from "./local-servers/local-server-start-error.js";
export * from "./local-servers/local-server.js";
export * from "./local-servers/nats-server-config.js";
export * from "./local-servers/ping-redis.js";
export * from "./local-servers/poll-until.js";
export * from "./local-servers/redis-server-config.js";
export * from "./local-servers/server-binary-missing-error.js";
export * from "./local-servers/server-install-hint.js";
export * from "./local-servers/server-process.js";
export * from "./local-servers/start-local-nats-server.js";
export * from "./local-servers/start-local-redis-server.js";
