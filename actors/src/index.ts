/**
 * @troupe/actors — the actor host: xstate v5 machines as virtual actors on NATS
 * JetStream (inboxes, events, dead letters, journal) and Redis (shard leases with
 * fencing tokens, snapshot generations, durable timers). See README.md for the
 * guarantees and ../shared/DESIGN.md for the map.
 */
export * from "./errors/lease-lost-error.js";
export * from "./errors/shard-count-mismatch-error.js";
export * from "./host/actor-host.js";
export * from "./host/host-options.js";
export * from "./host/shard-assignment.js";
export * from "./registry/actor-kind.js";
export * from "./step/actor-record.js";
export * from "./step/dead-letter-items.js";
export * from "./step/interpret-actions.js";
export * from "./step/process-message.js";
export * from "./stores/lease-store.js";
export * from "./stores/membership-store.js";
export * from "./stores/redis-keys.js";
export * from "./stores/redis-lease-store.js";
export * from "./stores/redis-membership-store.js";
export * from "./stores/redis-snapshot-store.js";
export * from "./stores/snapshot-store.js";
export * from "./streams/ensure-streams.js";
export * from "./streams/stream-names.js";
export * from "./replay/first-difference.js";
export * from "./replay/journal-reader.js";
export * from "./replay/replay-actor.js";
