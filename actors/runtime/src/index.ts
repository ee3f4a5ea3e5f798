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
 * Actor kinds, the pure step, the clock and the errors are `@troupe/step`'s,
 * the Redis stores `@troupe/stores`', replay `@troupe/replay`'s: re-exported
 * here whole, so that one import is enough.
 *
 * README.md says what the host guarantees; docs/design.md is the map.
 * Internals (stores, the step, Redis keys) are in `@troupe/runtime/internal`,
 * for Troupe's own packages and tests only.
 *
 * @packageDocumentation
 */
export * from "@troupe/step";
export * from "@troupe/stores";
export * from "@troupe/replay";
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
export {
  streamReplicationConfig,
  type StreamPlacement,
  type StreamReplication,
} from "./streams/ensure-streams.js";
export { readDeployment, type DeploymentRecord } from "./host/read-deployment.js";
