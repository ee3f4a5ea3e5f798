/**
 * Host membership and deployment settings.
 *
 * Hosts announce themselves with a heartbeat; a host whose heartbeat is older than
 * the membership TTL is gone, and its share of shards is redistributed.
 */
export interface MembershipStore {
  /**
   * Records that `hostId` is alive for `ttlMs` more and returns the live hosts
   * (sorted), including `hostId`, and whether `hostId` was a live member before
   * this heartbeat (false on its first heartbeat, and after its record lapsed:
   * a pause or a Redis outage longer than the TTL, or Redis restarted empty —
   * the host then lets the membership settle).
   */
  heartbeat(hostId: string, ttlMs: number): Promise<MembershipHeartbeat>;
  /** Removes `hostId` at once (graceful shutdown). */
  leave(hostId: string): Promise<void>;
  /**
   * Records the deployment's shard count on first start and returns the recorded
   * value (which may differ from `shardCount` if another host recorded it first).
   */
  claimShardCount(shardCount: number): Promise<number>;
}

/** What {@link MembershipStore.heartbeat} returns. Shape: `{ hosts, wasMember }`. */
export interface MembershipHeartbeat {
  /** Live host ids, sorted, including the caller. */
  readonly hosts: string[];
  /** Whether the caller's own record was live before this heartbeat. */
  readonly wasMember: boolean;
}
