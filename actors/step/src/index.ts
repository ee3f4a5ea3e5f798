/**
 * @troupe/step — actor kinds and the pure step, with no IO. What an actor is
 * ({@link defineActorKind}: a machine, its version, its message schemas, effect
 * handlers and snapshot migrations; {@link assertSupportedMachine} checks that
 * the host can run the machine), the clock a host reads ({@link systemClock},
 * {@link ManualClock} in tests), and the runtime's errors. The step itself
 * (`processMessage`: an actor record and one inbox message → the next record,
 * its outbox, effects and timers) is on `@troupe/step/internal`.
 *
 * `@troupe/runtime` hosts these kinds on NATS and Redis and re-exports all of
 * it; its README says what the host guarantees.
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
export * from "./registry/actor-kind.js";
export * from "./registry/assert-supported-machine.js";
export * from "./registry/migration-chain.js";
export type { ActorRecord, PendingEffect, PendingTimer, OutboxItem } from "./step/actor-record.js";
export type { InboxMessage } from "./step/process-message.js";
