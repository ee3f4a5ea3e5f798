/**
 * @troupe/cli/internal — every part of the CLI package, for Troupe's own tests:
 * admin reads and their formatters, event rendering, the demo agent's pieces,
 * dev-state files, local servers. Not covered by semantic versioning.
 *
 * @packageDocumentation
 */
export * from "./index.js";
export {
  findServerBinary,
  serverSearchDirectories,
  type FindServerBinaryOptions,
} from "./local-servers/find-server-binary.js";
export { findFreePort } from "./local-servers/find-free-port.js";
export {
  natsServerMaxPayloadBytes,
  renderNatsServerConfig,
  type NatsClusterConfig,
  type NatsServerConfigOptions,
} from "./local-servers/nats-server-config.js";
export {
  renderRedisServerConfig,
  type RedisServerConfigOptions,
} from "./local-servers/redis-server-config.js";
export {
  serverInstallHint,
  serverInstallLinks,
  type ServerInstallHintOptions,
} from "./local-servers/server-install-hint.js";
export { demoAgentScript, DEMO_HELP_TEXT } from "./demo/demo-agent-script.js";
export {
  parseDemoIntent,
  timeZoneIn,
  DEMO_CITY_TIME_ZONES,
  type DemoIntent,
} from "./demo/demo-intents.js";
export { describeDemoToolResults } from "./demo/demo-tool-results.js";
export { demoNotesKey, DEMO_OUTBOX_KEY, type DemoOutboxRecord } from "./demo/demo-redis-keys.js";
export {
  clockTool,
  clockInputSchema,
  readClock,
  type ClockInput,
  type ClockReading,
} from "./demo/clock-tool.js";
export {
  saveNote,
  saveNoteTool,
  saveNoteInputSchema,
  type SaveNoteInput,
  type SaveNoteResult,
} from "./demo/save-note-tool.js";
export {
  sendEmailTool,
  sendEmailInputSchema,
  type SendEmailInput,
  type SendEmailResult,
  type SendEmailToolOptions,
} from "./demo/send-email-tool.js";
export { UnknownTimeZoneError } from "./demo/unknown-time-zone-error.js";
// Admin read side of the CLI (`troupe inspect`, `troupe status`, `troupe replay`); see admin/README.md.
export { DEFAULT_DEPLOYMENT_PREFIX, type AdminDeps } from "./admin/admin-deps.js";
export {
  assembleClusterStatus,
  type ClusterReadings,
  type ClusterStatus,
  type HostStatus,
  type ShardStatus,
  type StreamStatus,
} from "./admin/assemble-cluster-status.js";
export { clusterStatus, type ClusterStatusOptions } from "./admin/cluster-status.js";
export {
  listDeadLetters,
  type DeadLetterView,
  type ListDeadLettersOptions,
} from "./admin/list-dead-letters.js";
export { formatDeadLetters } from "./admin/format-dead-letters.js";
export {
  CONTEXT_PREVIEW_CHARS,
  formatActorInspection,
  formatStateValue,
} from "./admin/format-actor-inspection.js";
export { formatClusterStatus, formatShardRanges } from "./admin/format-cluster-status.js";
export { formatDurationMs } from "./admin/format-duration-ms.js";
export { DIFFERENCE_PREVIEW_CHARS, formatReplayReport } from "./admin/format-replay-report.js";
export {
  inspectActor,
  inspectionNotes,
  type ActorInspection,
  type ShardLeaseView,
} from "./admin/inspect-actor.js";
export { readDeployment, type DeploymentRecord } from "./admin/read-deployment.js";
export { redisTimeMs } from "./admin/redis-time-ms.js";
export {
  replayActorCommand,
  type ActorKindSource,
  type ReplayActorCommandOptions,
  type ReplayCommandReport,
} from "./admin/replay-actor-command.js";
export {
  snapshotGenerationView,
  type ArmedTimerView,
  type PendingEffectView,
  type SnapshotGenerationView,
} from "./admin/snapshot-generation-view.js";
export {
  labelledLines,
  textTable,
  type ColumnAlignment,
  type TextColumn,
} from "./admin/text-table.js";
export { toJsonValue, type JsonValue } from "./admin/to-json-value.js";
// Pretty event rendering of `troupe tail` / `troupe chat`; see cli/render/README.md.
export { EventRenderer, type EventRendererOptions } from "./cli/render/event-renderer.js";
export type { RenderableEvent } from "./cli/render/renderable-event.js";
export { DeltaTracker, type DeltaDecision } from "./cli/render/delta-tracker.js";
export { eventLines, type EventLinesContext } from "./cli/render/event-lines.js";
export { knownEvent, type KnownEvent } from "./cli/render/known-event.js";
export { DEFAULT_VALUE_MAX_CHARS, formatValue } from "./cli/render/format-value.js";
export { renderColors, type RenderColors } from "./cli/render/render-colors.js";

export { agentsOfExport } from "./host/load-agents.js";
export {
  exportHistoryCommand,
  type ExportHistoryCommandOptions,
} from "./admin/export-history-command.js";
export { describeExport } from "./admin/history-export-summary.js";
export { checkNats } from "./host/check-nats.js";
export { checkRedis } from "./host/check-redis.js";
export {
  devStatePath,
  devStateSchema,
  readDevState,
  troupeHome,
  type DevState,
} from "./dev/dev-state.js";
export { troupeBinPath } from "./dev/dev-host-process.js";
export {
  initProject,
  packageName,
  ALLOWED_EXISTING,
  type InitProjectOptions,
  type InitProjectResult,
} from "./cli/init/init-project.js";
export {
  PROJECT_TEMPLATE_DIR,
  TEMPLATE_FILES,
  projectDependencies,
  type ProjectDependencies,
} from "./cli/init/project-template.js";
export { ProjectExistsError } from "./cli/init/project-exists-error.js";
export { formatReadyLine, parseReadyLine, type ReadyLine } from "./host/ready-line.js";
export { stderrRedisLogger } from "./host/stderr-redis-logger.js";
export {
  resolveConnection,
  DEFAULT_REDIS_URL,
  type ConnectionFlags,
  type ConnectionSettings,
  type SettingSource,
} from "./cli/connection-settings.js";
export {
  renderTenantsConfig,
  CLIENT_DENIED_PUBLISH_SUBJECTS,
  type TenantSpec,
  type TenantsConfig,
  type TenantsConfigOptions,
} from "./tenants/render-tenants-config.js";
export { writeTenantsConfig } from "./tenants/write-tenants-config.js";
export { createRedisConnection } from "./connection/create-redis-connection.js";
export {
  connectionConfigSchema,
  readConnectionConfig,
  type ConnectionConfig,
} from "./connection/connection-config.js";
export { ConnectionConfigError } from "./connection/connection-config-error.js";
export type { RedisSettings, RedisEndpoint } from "./connection/redis-settings.js";
