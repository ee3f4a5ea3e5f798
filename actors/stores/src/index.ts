/**
 * @troupe/stores — where the actor runtime keeps state, in Redis: snapshot
 * generations (compare-and-set, fenced by the shard's lease), shard leases
 * with fencing tokens, host membership and durable timers. The public entry
 * has the Redis connection settings ({@link RedisConnection},
 * {@link watchRedisConnection}) and the key-layout migration; the stores, their
 * in-memory implementations and the contract suites every implementation
 * passes are on `@troupe/stores/internal`.
 *
 * `@troupe/runtime` re-exports all of it.
 *
 * @packageDocumentation
 */
export * from "./stores/migrate-redis-key-layout.js";
export * from "./stores/redis-connection.js";
export * from "./stores/watch-redis-connection.js";
