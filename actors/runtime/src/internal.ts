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
export * from "@troupe/step/internal";
export * from "@troupe/stores/internal";
export * from "./host/event-loop-slicer.js";
export * from "./host/shard-assignment.js";
export * from "./observability/host-metrics.js";
export * from "./host/rebalance-plan.js";
export * from "./host/shard-catch-up.js";
export * from "./host/shard-count-state.js";
export * from "./streams/ensure-streams.js";
export * from "./streams/shard-consumer-name.js";
