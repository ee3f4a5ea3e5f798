/**
 * @troupe/runtime/internal — the runtime's parts for Troupe's own packages and
 * tests: the pure step, the stores (Redis and in-memory implementations, and
 * the contract suites every implementation passes), stream
 * set-up, shard assignment. Everything public is re-exported. Not covered by
 * semantic versioning.
 *
 * @packageDocumentation
 */
export * from "./index.js";
export * from "./host/event-loop-slicer.js";
export * from "./host/shard-assignment.js";
export * from "./observability/host-metrics.js";
export * from "./host/rebalance-plan.js";
export * from "./host/shard-catch-up.js";
export * from "./host/shard-count-state.js";
export * from "./registry/machine-action-support.js";
export * from "./step/actor-record.js";
export * from "./step/dead-letter-items.js";
export * from "./step/interpret-actions.js";
export * from "./step/process-message.js";
export * from "./step/read-stored-state.js";
export * from "./stores/in-memory-lease-store.js";
export * from "./stores/in-memory-snapshot-store.js";
export * from "./stores/lease-store-contract.js";
export * from "./stores/lease-store.js";
export * from "./stores/membership-store.js";
export * from "./stores/redis-lease-store.js";
export * from "./stores/redis-membership-store.js";
export * from "./stores/redis-script.js";
export * from "./stores/redis-snapshot-store.js";
export * from "./stores/snapshot-store-contract.js";
export * from "./stores/snapshot-store.js";
export * from "./stores/stored-actor-value.js";
export * from "./stores/timer-member.js";
export * from "./stores/advance-durable-timers.js";
export * from "./streams/ensure-streams.js";
export * from "./streams/shard-consumer-name.js";
