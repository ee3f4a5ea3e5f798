/**
 * Shard leases with fencing tokens (docs/design.md, "One owner").
 *
 * A lease gives one host the right to consume a shard's inbox and write its
 * actors' snapshots until `ttlMs` after the last renewal. Every acquisition by a
 * new owner issues a fencing token greater than every earlier one for that shard;
 * snapshot writes check it, so a host whose lease lapsed (paused, partitioned) is
 * fenced out even if it does not know yet.
 */
export interface LeaseStore {
  /**
   * Takes the shard if nobody holds it (or renews it if `owner` already does).
   *
   * @returns the fencing token, or undefined when another owner holds the lease.
   */
  acquire(shard: number, owner: string, ttlMs: number): Promise<number | undefined>;
  /**
   * Extends leases held by `owner` with the given tokens.
   *
   * @returns for each entry, whether the lease is still held (false: stop at once).
   */
  renew(owner: string, leases: readonly ShardLease[], ttlMs: number): Promise<boolean[]>;
  /** Gives the shard up at once (graceful hand-over); no-op unless `owner`/`token` hold it. */
  release(shard: number, owner: string, token: number): Promise<boolean>;
  /** Current holder of each shard, for inspection. */
  holders(shardCount: number): Promise<LeaseHolder[]>;
}

/** A held lease. */
export interface ShardLease {
  readonly shard: number;
  readonly token: number;
}

/** Who holds a shard, as stored. */
export interface LeaseHolder {
  readonly shard: number;
  readonly owner: string | undefined;
  readonly token: number | undefined;
  /** Remaining lease time in ms (undefined when free). */
  readonly remainingMs: number | undefined;
}
