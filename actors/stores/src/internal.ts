/**
 * @troupe/stores/internal — the stores for Troupe's own packages and tests:
 * snapshot, lease and membership stores (Redis and in-memory), the contract
 * suites every implementation passes, timer members, Redis scripts. Everything
 * public is re-exported. Not covered by semantic versioning.
 *
 * @packageDocumentation
 */
export * from "./index.js";
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
export * from "./stores/move-actor-keys.js";
