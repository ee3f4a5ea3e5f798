/**
 * Host membership and deployment settings.
 *
 * Hosts announce themselves with a heartbeat; a host whose heartbeat is older than
 * the membership TTL is gone, and its share of shards is redistributed.
 */
export interface MembershipStore {
  /**
   * Records that `hostId` is alive for `ttlMs` more and returns the live hosts
   * (sorted), including `hostId`.
   */
  heartbeat(hostId: string, ttlMs: number): Promise<string[]>;
  /** Removes `hostId` at once (graceful shutdown). */
  leave(hostId: string): Promise<void>;
  /**
   * Records the deployment's shard count on first start and returns the recorded
   * value (which may differ from `shardCount` if another host recorded it first).
   */
  claimShardCount(shardCount: number): Promise<number>;
}
