/**
 * @troupe/machines/internal — for Troupe's own packages and tests. Everything
 * public is re-exported. Not covered by semantic versioning.
 *
 * @packageDocumentation
 */
export * from "./index.js";
