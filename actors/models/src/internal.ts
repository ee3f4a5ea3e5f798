/**
 * @troupe/models/internal — the spend ledger (Redis, and a recording one for
 * tests), the spend guard and model pricing, for Troupe's own packages and
 * tests. Everything public is re-exported. Not covered by semantic versioning.
 *
 * @packageDocumentation
 */
export * from "./index.js";
export * from "./budget/model-pricing.js";
export * from "./budget/spend-ledger.js";
export * from "./budget/redis-spend-ledger.js";
export * from "./budget/spend-guard.js";
export * from "./budget/recording-spend-ledger.js";
// Model cassettes: record a test's model calls, replay them offline (the test kit re-exports them).
export * from "./cassette/model-cassette.js";
export * from "./cassette/cassette-mismatch-error.js";
export { cassetteRequest, requestKey, requestLines } from "./cassette/cassette-request.js";
export { canonicalJson } from "./cassette/stored-value.js";
