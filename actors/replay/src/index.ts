/**
 * @troupe/replay — actors re-run offline through the pure step, with no host.
 *
 * - {@link replayActor}: re-runs an actor's journal and reports the first
 *   divergence from its stored snapshot generations.
 * - {@link exportActorHistory}: records an actor's (or a conversation's)
 *   journal and generations as a history file (`@troupe/protocol`'s format)
 *   that replays offline; {@link replayRecordedHistory} replays
 *   one with the kinds given, to check a changed machine or a migration, and
 *   {@link formatHistoryReplayReport} prints its report.
 *
 * `@troupe/runtime` re-exports all of it.
 *
 * @packageDocumentation
 */
export * from "./replay/export-actor-history.js";
export * from "./replay/first-difference.js";
export * from "./replay/journal-reader.js";
export * from "./replay/outbox-targets.js";
export * from "./replay/record-actor-history.js";
export * from "./replay/journal-message.js";
export * from "./replay/replay-actor.js";
export * from "./replay/replay-history.js";
export * from "./replay/verify-recorded-actor.js";
