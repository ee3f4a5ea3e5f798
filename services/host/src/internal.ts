/**
 * @troupe/host/internal — every module of the package, for the `troupe` command
 * and Troupe's own tests. Not covered by semantic versioning.
 *
 * @packageDocumentation
 */
export * from "./connection/as-redis.js";
export * from "./connection/connect-host-nats.js";
export * from "./connection/connection-config-error.js";
export * from "./connection/connection-config.js";
export * from "./connection/connection-layers.js";
export * from "./connection/create-redis-connection.js";
export * from "./connection/host-logger.js";
export * from "./connection/nats-client-settings.js";
export * from "./connection/redis-settings.js";
export * from "./demo/clock-tool.js";
export * from "./demo/demo-agent-script.js";
export * from "./demo/demo-agents.js";
export * from "./demo/demo-intents.js";
export * from "./demo/demo-mcp-servers.js";
export * from "./demo/demo-redis-keys.js";
export * from "./demo/demo-tool-results.js";
export * from "./demo/save-note-tool.js";
export * from "./demo/send-email-tool.js";
export * from "./demo/unknown-time-zone-error.js";
export * from "./host/agent-models.js";
export * from "./host/agent-module-error.js";
export * from "./host/check-agent-module.js";
export * from "./host/check-nats.js";
export * from "./host/check-redis.js";
export * from "./host/demo-agent-module.js";
export * from "./host/host-health.js";
export * from "./host/host-http-app.js";
export * from "./host/load-agents.js";
export * from "./host/ready-line.js";
export * from "./host/redis-unreachable-error.js";
export * from "./host/run-host.js";
export * from "./host/serve-host-http.js";
export * from "./host/stderr-redis-logger.js";
export * from "./process/host-action.js";
export * from "./process/host-check-action.js";
export * from "./process/host-command.js";
export * from "./process/host-health-options.js";
export * from "./settings/connection-options.js";
export * from "./settings/connection-settings.js";
export * from "./settings/dev-state.js";
export * from "./settings/parse-number.js";
export * from "./settings/stream-options.js";
export * from "./telemetry/host-metrics-endpoint.js";
export * from "./telemetry/once-diag-logger.js";
export * from "./telemetry/start-telemetry.js";
export * from "./telemetry/telemetry-settings.js";
export * from "./telemetry/trace-log-fields.js";
