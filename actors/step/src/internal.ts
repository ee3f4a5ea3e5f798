/**
 * @troupe/step/internal — the pure step for Troupe's own packages and tests:
 * `processMessage`, the actor record and its codec, the interpretation of a
 * machine's actions, dead-letter and effect-result items. Everything public is
 * re-exported. Not covered by semantic versioning.
 *
 * @packageDocumentation
 */
export * from "./index.js";
export * from "./registry/machine-action-support.js";
export * from "./step/actor-record.js";
export * from "./step/dead-letter-items.js";
export * from "./step/interpret-actions.js";
export * from "./step/process-message.js";
export * from "./step/read-stored-state.js";
export * from "./step/effect-result-item.js";
export * from "./step/unroutable-dead-letter.js";
