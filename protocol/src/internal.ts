/**
 * @troupe/protocol/internal — contracts between Troupe's own packages that users
 * do not build on: the Redis key layout. Everything public is re-exported, so
 * an internal user needs one import. Not covered by semantic versioning.
 *
 * @packageDocumentation
 */
export * from "./index.js";
export * from "@troupe/addressing/internal";
export { decodeBody } from "./codec/decode-body.js";
