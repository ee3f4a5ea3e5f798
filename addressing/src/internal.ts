/**
 * @troupe/addressing/internal — names between Troupe's own packages that users
 * do not build on: the Redis key layout. Everything public is re-exported. Not
 * covered by semantic versioning.
 *
 * @packageDocumentation
 */
export * from "./index.js";
export { RedisKeys } from "./storage/redis-keys.js";
