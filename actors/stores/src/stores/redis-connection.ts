import type { Cluster, Redis } from "ioredis";

/**
 * A connection to the deployment's Redis: one server or a Sentinel-managed
 * master (`Redis`), or a Redis Cluster (`Cluster`). Every script Troupe runs
 * touches keys of one hash slot (`RedisKeys` puts a shard's keys under one hash
 * tag), so each store works on either (docs/decisions/0031).
 */
export type RedisConnection = Redis | Cluster;
