/**
 * @troupe/runtime — hosts any xstate v5 machine as a virtual actor on NATS
 * JetStream (inboxes, events, dead letters, the journal) and Redis (shard leases
 * with fencing tokens, snapshot generations, durable timers). It knows nothing
 * of agents or models: `@troupe/agents` is one application on top of it.
 *
 * - {@link ActorHost}: leases a fair share of shards and processes their
 *   inboxes one message per actor at a time (pure step → fenced commit →
 *   outbox → effects → ack); graceful on `stop()`.
 * - {@link defineActorKind}: a machine, its version, its message schemas and
 *   effect handlers; {@link assertSupportedMachine} checks that the host can run
 *   the machine (the host checks it on start).
 * - {@link replayActor}: re-runs an actor's journal through the pure step and
 *   reports the first divergence from the stored snapshot;
 *   {@link exportActorHistory} records an actor's (or a conversation's) journal
 *   and generations as a history file that replays offline (docs/decisions/0020).
 * - {@link Clock}: where the host reads the time ({@link systemClock} by
 *   default, {@link ManualClock} in tests).
 *
 * README.md says what the host guarantees; docs/design.md is the map.
 * Internals (stores, the step, Redis keys) are in `@troupe/runtime/internal`,
 * for Troupe's own packages and tests only.
 *
 * @packageDocumentation
 */
export * from "./clock/clock.js";
export * from "./clock/manual-clock.js";
export * from "./clock/system-clock.js";
export * from "./errors/actor-not-found-error.js";
export * from "./errors/effect-cancelled-error.js";
export * from "./errors/history-not-reproducible-error.js";
export * from "./errors/lease-lost-error.js";
export * from "./errors/redis-key-layout-error.js";
export * from "./errors/shard-count-changing-error.js";
export * from "./errors/shard-count-mismatch-error.js";
export * from "./errors/stream-settings-refused-error.js";
export * from "./errors/unknown-machine-version-error.js";
export * from "./errors/unsupported-machine-action-error.js";
export * from "./host/actor-host.js";
export * from "./host/change-shard-count.js";
export * from "./host/host-options.js";
export {
  REFUSAL_RECORD_TTL_MS,
  type RefusedActor,
  type RefusedActorRecord,
  type VersionRefusalAlert,
  type VersionRefusalReport,
} from "./host/version-refusals.js";
export * from "./stores/migrate-redis-key-layout.js";
export * from "./stores/redis-connection.js";
export * from "./stores/watch-redis-connection.js";
export * from "./registry/actor-kind.js";
export * from "./registry/assert-supported-machine.js";
export * from "./registry/migration-chain.js";
export type { ActorRecord, PendingEffect, PendingTimer, OutboxItem } from "./step/actor-record.js";
export type { InboxMessage } from "./step/process-message.js";
export * from "./replay/export-actor-history.js";
export * from "./replay/first-difference.js";
export * from "./replay/journal-reader.js";
export * from "./replay/outbox-targets.js";
export * from "./replay/record-actor-history.js";
export * from "./replay/journal-message.js";
export * from "./replay/replay-actor.js";
export * from "./replay/replay-history.js";
export * from "./replay/verify-recorded-actor.js";
export {
  streamReplicationConfig,
  type StreamPlacement,
  type StreamReplication,
} from "./streams/ensure-streams.js";
export { readDeployment, type DeploymentRecord } from "./host/read-deployment.js";
