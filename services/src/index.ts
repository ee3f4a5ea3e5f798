/**
 * `@troupe/services`: Troupe's runnable entry points and what they need to run
 * on one machine.
 *
 * - **Client SDK** (`client/`): {@link TroupeClient} sends messages, follows a
 *   session's events with no gap or duplicate across reconnects, approves,
 *   denies, answers, steers, cancels and waits for runs. See `client/README.md`.
 * - **CLI** (`cli/`, `bin/troupe.mjs`): `troupe dev | host | send | chat | tail |
 *   approve | deny | answer | cancel | steer | inspect | status | replay`.
 * - **Dev cluster** (`dev/`): {@link startDevCluster}, the main job behind `troupe dev`.
 * - **Hosts** (`host/`): {@link runHost} (graceful on SIGTERM) and {@link loadAgents}
 *   for agent modules.
 * - **Admin reads** (`admin/`): {@link inspectActor}, {@link clusterStatus},
 *   {@link replayActorCommand} and their text formatters.
 * - **Demo agent** (`demo/`): {@link demoAgents}, with a read, an idempotent write
 *   and a non-idempotent write behind approval.
 * - **Local servers** (`local-servers/`): {@link startLocalNatsServer} and
 *   {@link startLocalRedisServer} run real `nats-server` (JetStream) and
 *   `redis-server` binaries, for the test harness and for `troupe dev`.
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
export {
  demoAgents,
  demoModel,
  DEMO_AGENT_NAME,
  type DemoAgentsContext,
} from "./demo/demo-agents.js";
export { demoAgentScript, DEMO_HELP_TEXT } from "./demo/demo-agent-script.js";
export {
  parseDemoIntent,
  timeZoneIn,
  DEMO_CITY_TIME_ZONES,
  type DemoIntent,
} from "./demo/demo-intents.js";
export { describeDemoToolResults } from "./demo/demo-tool-results.js";
export { DEMO_NOTES_KEY, DEMO_OUTBOX_KEY, type DemoOutboxRecord } from "./demo/demo-redis-keys.js";
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
export {
  TroupeClient,
  type EventsOptions,
  type SendAndWaitOptions,
} from "./client/troupe-client.js";
export {
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_NATS_URL,
  resolveNatsUrls,
  type TroupeClientCredentials,
  type TroupeClientOptions,
} from "./client/troupe-client-options.js";
export type { CommandReceipt, SendReceipt } from "./client/send-receipt.js";
export type { SessionEvent } from "./client/session-event.js";
export type { RunOutcome } from "./client/run-outcome.js";
export type { UserMessageInput } from "./client/user-message-input.js";
export type { RunTarget } from "./client/run-tracker.js";
export type { WaitForRunOptions } from "./client/wait-for-run-outcome.js";
export { DEFAULT_REMEMBERED_EVENT_IDS, EventDeduplicator } from "./client/event-deduplicator.js";
export { userMessageEnvelopeId } from "./client/session-message.js";
export { NatsUnreachableError } from "./client/nats-unreachable-error.js";
export { InboxMappingMissingError } from "./client/inbox-mapping-missing-error.js";
export { StreamsMissingError } from "./client/streams-missing-error.js";
export { RunTimeoutError } from "./client/run-timeout-error.js";
export { MessageRejectedError } from "./client/message-rejected-error.js";
export { ClientClosedError } from "./client/client-closed-error.js";
// Pretty event rendering of `troupe tail` / `troupe chat`; see cli/render/README.md.
export { EventRenderer, type EventRendererOptions } from "./cli/render/event-renderer.js";
export type { RenderableEvent } from "./cli/render/renderable-event.js";
export { DeltaTracker, type DeltaDecision } from "./cli/render/delta-tracker.js";
export { eventLines, type EventLinesContext } from "./cli/render/event-lines.js";
export { knownEvent, type KnownEvent } from "./cli/render/known-event.js";
export { DEFAULT_VALUE_MAX_CHARS, formatValue } from "./cli/render/format-value.js";
export { renderColors, type RenderColors } from "./cli/render/render-colors.js";

export { loadAgents, type AgentModuleContext, type AgentModuleExport } from "./host/load-agents.js";
export { AgentModuleError } from "./host/agent-module-error.js";
export { RedisUnreachableError } from "./host/redis-unreachable-error.js";
export { checkNats } from "./host/check-nats.js";
export { checkRedis } from "./host/check-redis.js";
export {
  startDevCluster,
  type DevCluster,
  type DevClusterOptions,
} from "./dev/start-dev-cluster.js";
export {
  devStatePath,
  devStateSchema,
  readDevState,
  troupeHome,
  type DevState,
} from "./dev/dev-state.js";
export { DevAlreadyRunningError } from "./dev/dev-already-running-error.js";
export { troupeBinPath } from "./dev/dev-host-process.js";
export { formatReadyLine, parseReadyLine, type ReadyLine } from "./host/ready-line.js";
export { createProgram } from "./cli/program.js";
export {
  resolveConnection,
  DEFAULT_REDIS_URL,
  type ConnectionFlags,
  type ConnectionSettings,
  type SettingSource,
} from "./cli/connection-settings.js";
