/**
 * @troupe/admin — operations on a running Troupe deployment, read from its
 * Redis and JetStream (what `troupe inspect`, `status`, `dead-letters`,
 * `replay`, `history export`, `usage` and `tenants` print or write):
 *
 * - {@link inspectActor}: an actor's snapshot generation, lease, pending
 *   effects and timers; {@link clusterStatus}: hosts, shards, streams.
 * - {@link listDeadLetters}: what a host refused to process, and why.
 * - {@link replayActorCommand}: an actor's journal replayed against its
 *   snapshots; {@link exportHistoryCommand}: a recorded history to a file.
 * - {@link renderTenantsConfig} / {@link writeTenantsConfig}: the NATS
 *   accounts file of the tenants.
 *
 * Nothing here writes to the deployment except the tenants file.
 *
 * @packageDocumentation
 */
export { DEFAULT_DEPLOYMENT_PREFIX, type AdminDeps } from "./admin/admin-deps.js";
export {
  inspectActor,
  inspectionNotes,
  pinnedDefinitionOf,
  type ActorInspection,
  type PinnedDefinitionView,
  type ShardLeaseView,
} from "./admin/inspect-actor.js";
export {
  snapshotGenerationView,
  type ArmedTimerView,
  type PendingEffectView,
  type SnapshotGenerationView,
} from "./admin/snapshot-generation-view.js";
export { clusterStatus, type ClusterStatusOptions } from "./admin/cluster-status.js";
export {
  assembleClusterStatus,
  type ClusterReadings,
  type ClusterStatus,
  type HostStatus,
  type RefusedActorStatus,
  type ShardStatus,
  type StreamStatus,
} from "./admin/assemble-cluster-status.js";
export {
  listDeadLetters,
  type DeadLetterView,
  type ListDeadLettersOptions,
} from "./admin/list-dead-letters.js";
export {
  replayActorCommand,
  type ActorKindSource,
  type ReplayActorCommandOptions,
  type ReplayCommandReport,
} from "./admin/replay-actor-command.js";
export {
  exportHistoryCommand,
  type ExportHistoryCommandOptions,
} from "./admin/export-history-command.js";
export { redisTimeMs } from "./admin/redis-time-ms.js";
export {
  writeHistoryCassette,
  type HistoryCassetteOptions,
  type HistoryCassetteReport,
} from "./admin/history-cassette.js";
export {
  renderTenantsConfig,
  CLIENT_DENIED_PUBLISH_SUBJECTS,
  type TenantSpec,
  type TenantsConfig,
  type TenantsConfigOptions,
} from "./tenants/render-tenants-config.js";
export {
  writeTenantsConfig,
  type WriteTenantsConfigOptions,
} from "./tenants/write-tenants-config.js";
