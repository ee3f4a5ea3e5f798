/**
 * Shard leases with fencing tokens (docs/design.md, "One owner").
 *
 * A lease gives one host the right to consume a shard's inbox and write its
 * actors' snapshots until `ttlMs` after the last renewal. Every acquisition by a
 * new owner issues a fencing token greater than every earlier one for that shard;
 * snapshot writes check it with the owner, so a host whose lease lapsed (paused,
 * partitioned) is fenced out even if it does not know yet.
 *
 * A store that can lose its latest writes (Redis: an asynchronous replica promoted
 * by a failover, or an AOF whose last second was not on disk) can issue a token
 * twice; the owner check keeps two grants apart then. Each grant also counts the
 * commits made under it (`writes`): a renewal that finds fewer than the owner
 * knows it made reports `writes_lost`, and the owner restarts the shard from its
 * watermark (decision 0031).
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
   * @returns for each entry: `held`; `lost` (another grant or none: stop at
   *   once); `writes_lost` (still held, but the store holds fewer commits under
   *   it than `writesFloor`: it lost writes; stop, release and start the shard
   *   again from its watermark). A `writes_lost` lease is not extended.
   */
  renew(owner: string, leases: readonly ShardLease[], ttlMs: number): Promise<LeaseRenewal[]>;
  /** Gives the shard up at once (graceful hand-over); no-op unless `owner`/`token` hold it. */
  release(shard: number, owner: string, token: number): Promise<boolean>;
  /** Current holder of each shard, for inspection. */
  holders(shardCount: number): Promise<LeaseHolder[]>;
}

/** A held lease. */
export interface ShardLease {
  readonly shard: number;
  readonly token: number;
  /**
   * Commits the owner knows it made under this grant (the highest `writes` a
   * commit answered); default 0. Decision 0031.
   */
  readonly writesFloor?: number;
}

/** What a renewal found, per lease (see {@link LeaseStore.renew}). */
export type LeaseRenewal = "held" | "lost" | "writes_lost";

/** Who holds a shard, as stored. */
export interface LeaseHolder {
  readonly shard: number;
  readonly owner: string | undefined;
  readonly token: number | undefined;
  /** Remaining lease time in ms (undefined when free). */
  readonly remainingMs: number | undefined;
}
