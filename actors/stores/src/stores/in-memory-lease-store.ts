import { type Clock, systemClock } from "@troupe/step";
import type { LeaseHolder, LeaseRenewal, LeaseStore, ShardLease } from "./lease-store.js";

/** Options of {@link InMemoryLeaseStore}. */
export interface InMemoryLeaseStoreOptions {
  /** Measures lease TTLs; default {@link systemClock}. A `ManualClock` expires leases on `advance`. */
  readonly clock?: Clock;
}

interface HeldLease {
  readonly owner: string;
  readonly token: number;
  /** Last instant the lease is still held, Unix ms by the store's clock. */
  expiresAtMs: number;
  /** Commits counted under this grant (`countWrite`). */
  writes: number;
}

/**
 * A {@link LeaseStore} in process memory, for unit tests and single-process
 * runs: the same answers as `RedisLeaseStore` (it passes the same contract
 * suite, `leaseStoreContractCases`), with TTLs measured on an injected
 * {@link Clock}. A lease is held up to and including `ttlMs` after its last
 * acquisition or renewal (Redis expires a key once its time is strictly past).
 * Fencing tokens grow per shard and are never reused, also after expiry or
 * release. Nothing survives the process.
 *
 * An `InMemorySnapshotStore` reads {@link InMemoryLeaseStore.currentToken} to
 * fence its writes, as the Redis scripts read the lease hash.
 *
 * @example
 * ```ts
 * const clock = new ManualClock();
 * const leases = new InMemoryLeaseStore({ clock });
 * await leases.acquire(3, "host-a", 2_000); // 1
 * clock.advance(2_001);
 * await leases.acquire(3, "host-b", 2_000); // 2: host-a's lease expired
 * ```
 */
export class InMemoryLeaseStore implements LeaseStore {
  readonly #leases = new Map<number, HeldLease>();
  /** Last token issued per shard. */
  readonly #tokens = new Map<number, number>();
  readonly #clock: Clock;

  /** @param options - see {@link InMemoryLeaseStoreOptions}. */
  constructor(options: InMemoryLeaseStoreOptions = {}) {
    this.#clock = options.clock ?? systemClock;
  }

  /** See {@link LeaseStore.acquire}. */
  acquire(shard: number, owner: string, ttlMs: number): Promise<number | undefined> {
    const now = this.#clock.now();
    const held = this.#held(shard, now);
    if (held !== undefined) {
      if (held.owner !== owner) return Promise.resolve(undefined);
      held.expiresAtMs = now + ttlMs;
      return Promise.resolve(held.token);
    }
    const token = (this.#tokens.get(shard) ?? 0) + 1;
    this.#tokens.set(shard, token);
    this.#leases.set(shard, { owner, token, expiresAtMs: now + ttlMs, writes: 0 });
    return Promise.resolve(token);
  }

  /** See {@link LeaseStore.renew}. */
  renew(owner: string, leases: readonly ShardLease[], ttlMs: number): Promise<LeaseRenewal[]> {
    const now = this.#clock.now();
    return Promise.resolve(
      leases.map(({ shard, token, writesFloor = 0 }): LeaseRenewal => {
        const held = this.#held(shard, now);
        if (held === undefined || held.owner !== owner || held.token !== token) return "lost";
        if (held.writes < writesFloor) return "writes_lost";
        held.expiresAtMs = now + ttlMs;
        return "held";
      }),
    );
  }

  /** See {@link LeaseStore.release}. */
  release(shard: number, owner: string, token: number): Promise<boolean> {
    const held = this.#held(shard, this.#clock.now());
    if (held === undefined || held.owner !== owner || held.token !== token) {
      return Promise.resolve(false);
    }
    this.#leases.delete(shard);
    return Promise.resolve(true);
  }

  /** See {@link LeaseStore.holders}. */
  holders(shardCount: number): Promise<LeaseHolder[]> {
    const now = this.#clock.now();
    return Promise.resolve(
      Array.from({ length: shardCount }, (_, shard) => {
        const held = this.#held(shard, now);
        return {
          shard,
          owner: held?.owner,
          token: held?.token,
          remainingMs: held === undefined ? undefined : held.expiresAtMs - now,
        };
      }),
    );
  }

  /**
   * The fencing token of the lease held on `shard` now, if any: the token a
   * write must carry to be accepted.
   *
   * @param shard - the shard.
   * @returns the holder's token, or undefined when the shard is free (never
   *   leased, released or expired).
   */
  currentToken(shard: number): number | undefined {
    return this.#held(shard, this.#clock.now())?.token;
  }

  /** The grant held on `shard` now (owner, token, commits counted), or undefined. */
  currentGrant(shard: number): { owner: string; token: number; writes: number } | undefined {
    const held = this.#held(shard, this.#clock.now());
    return held === undefined
      ? undefined
      : { owner: held.owner, token: held.token, writes: held.writes };
  }

  /**
   * Counts one commit under the shard's current grant (the Redis commit script's
   * `HINCRBY writes`), for `InMemorySnapshotStore`.
   *
   * @returns the grant's commit count, this one included (0 when no grant is held).
   */
  countWrite(shard: number): number {
    const held = this.#held(shard, this.#clock.now());
    if (held === undefined) return 0;
    held.writes += 1;
    return held.writes;
  }

  #held(shard: number, now: number): HeldLease | undefined {
    const held = this.#leases.get(shard);
    if (held === undefined) return undefined;
    if (now > held.expiresAtMs) {
      this.#leases.delete(shard);
      return undefined;
    }
    return held;
  }
}
