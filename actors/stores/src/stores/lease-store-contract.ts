import assert from "node:assert/strict";
import type { LeaseStore } from "./lease-store.js";

/** One case of the {@link LeaseStore} contract: a name saying what it proves and the check. */
export interface LeaseStoreContractCase {
  readonly name: string;
  /** Resolves when the store keeps the contract; rejects with an `AssertionError` otherwise. */
  readonly run: () => Promise<void>;
}

/** A lease store under test and a way to let its time pass. */
export interface LeaseStoreContractSubject {
  readonly leases: LeaseStore;
  /**
   * Lets `ms` pass on the store's clock: a real wait for `RedisLeaseStore`
   * (the Redis server's clock), `ManualClock.advance` for an
   * `InMemoryLeaseStore` on a manual clock.
   */
  readonly elapse: (ms: number) => Promise<void>;
}

/** The cases lease shards 0 to 31. */
const LEASE_STORE_CONTRACT_SHARDS = 32;

/**
 * The shared contract suite of {@link LeaseStore}, run against every
 * implementation (in memory as a unit test, on a real Redis as an integration
 * test): plain async checks with `node:assert`, so any test runner can register
 * them. Each case leases shards of its own (shards 0 to 31 in all); run each call of this function on an empty
 * store (for Redis: a fresh key prefix). About 1.6 s of store time elapses in all.
 *
 * @param createSubject - makes the store under test (may return the same one each time).
 * @returns the cases, to register with the runner.
 * @example
 * ```ts
 * const clock = new ManualClock();
 * const leases = new InMemoryLeaseStore({ clock });
 * const elapse = (ms: number) => Promise.resolve(void clock.advance(ms));
 * for (const { name, run } of leaseStoreContractCases(() => ({ leases, elapse }))) it(name, run);
 * ```
 */
export function leaseStoreContractCases(
  createSubject: () => LeaseStoreContractSubject | Promise<LeaseStoreContractSubject>,
): LeaseStoreContractCase[] {
  let nextShard = 0;
  const freshShard = () => {
    assert.ok(nextShard < LEASE_STORE_CONTRACT_SHARDS, "the contract ran out of shards");
    return nextShard++;
  };
  const longTtlMs = 60_000;

  return [
    {
      name: "acquiring a free shard issues a token; another owner is refused while it is held; the holder acquiring again keeps its token",
      run: async () => {
        const { leases } = await createSubject();
        const shard = freshShard();
        const token = await leases.acquire(shard, "host-a", longTtlMs);
        assert.equal(typeof token, "number");
        assert.ok(token! >= 1);
        assert.equal(await leases.acquire(shard, "host-b", longTtlMs), undefined);
        assert.equal(await leases.acquire(shard, "host-a", longTtlMs), token);
        const holder = (await leases.holders(shard + 1))[shard];
        assert.equal(holder?.shard, shard);
        assert.equal(holder?.owner, "host-a");
        assert.equal(holder?.token, token);
      },
    },
    {
      name: "renew extends exactly the leases the owner holds with the given token, one answer per entry in order",
      run: async () => {
        const { leases } = await createSubject();
        const [held, wrongToken, free] = [freshShard(), freshShard(), freshShard()];
        const heldToken = (await leases.acquire(held, "host-a", longTtlMs))!;
        const otherToken = (await leases.acquire(wrongToken, "host-a", longTtlMs))!;
        assert.deepEqual(
          await leases.renew(
            "host-a",
            [
              { shard: held, token: heldToken },
              { shard: wrongToken, token: otherToken + 1 },
              { shard: free, token: 1 },
            ],
            longTtlMs,
          ),
          ["held", "lost", "lost"],
        );
        assert.deepEqual(
          await leases.renew("host-b", [{ shard: held, token: heldToken }], longTtlMs),
          ["lost"],
        );
        assert.deepEqual(await leases.renew("host-a", [], longTtlMs), []);
        // A refused renewal changed nothing: the lease is still host-a's.
        assert.equal((await leases.holders(held + 1))[held]?.owner, "host-a");
      },
    },
    {
      name: "a renewal whose writes floor is above the commits the grant counts answers writes_lost and does not extend the lease",
      run: async () => {
        const { leases, elapse } = await createSubject();
        const shard = freshShard();
        const token = (await leases.acquire(shard, "host-a", 300))!;
        // A fresh grant counts no commit: an owner that knows of one lost it.
        assert.deepEqual(
          await leases.renew("host-a", [{ shard, token, writesFloor: 1 }], longTtlMs),
          ["writes_lost"],
        );
        assert.deepEqual(await leases.renew("host-a", [{ shard, token, writesFloor: 0 }], 300), [
          "held",
        ]);
        await leases.renew("host-a", [{ shard, token, writesFloor: 1 }], longTtlMs);
        await elapse(500);
        // Not extended by the writes_lost renewal: the 300 ms lease lapsed.
        assert.equal((await leases.holders(shard + 1))[shard]?.owner, undefined);
      },
    },
    {
      name: "release frees the shard only for its owner and token; the next owner gets a greater token",
      run: async () => {
        const { leases } = await createSubject();
        const shard = freshShard();
        const first = (await leases.acquire(shard, "host-a", longTtlMs))!;
        assert.equal(await leases.release(shard, "host-b", first), false);
        assert.equal(await leases.release(shard, "host-a", first + 1), false);
        assert.equal((await leases.holders(shard + 1))[shard]?.owner, "host-a");
        assert.equal(await leases.release(shard, "host-a", first), true);
        assert.equal(await leases.release(shard, "host-a", first), false);
        assert.deepEqual((await leases.holders(shard + 1))[shard], {
          shard,
          owner: undefined,
          token: undefined,
          remainingMs: undefined,
        });
        const second = await leases.acquire(shard, "host-b", longTtlMs);
        assert.ok(second !== undefined && second > first, `${second} > ${first}`);
        // The released token is dead: its owner can neither renew nor release with it.
        assert.deepEqual(await leases.renew("host-a", [{ shard, token: first }], longTtlMs), [
          "lost",
        ]);
      },
    },
    {
      name: "fencing tokens of a shard only grow, whoever acquires it",
      run: async () => {
        const { leases } = await createSubject();
        const shard = freshShard();
        const tokens: number[] = [];
        for (const owner of ["host-a", "host-b", "host-a", "host-c", "host-b"]) {
          const token = (await leases.acquire(shard, owner, longTtlMs))!;
          tokens.push(token);
          assert.equal(await leases.release(shard, owner, token), true);
        }
        for (let index = 1; index < tokens.length; index += 1) {
          assert.ok(tokens[index]! > tokens[index - 1]!, `tokens grow: ${tokens.join(", ")}`);
        }
      },
    },
    {
      name: "a lease not renewed within its TTL expires: renewal fails, the shard is free and its next token is greater",
      run: async () => {
        const { leases, elapse } = await createSubject();
        const shard = freshShard();
        const first = (await leases.acquire(shard, "host-a", 200))!;
        await elapse(400);
        assert.deepEqual(await leases.renew("host-a", [{ shard, token: first }], 200), ["lost"]);
        assert.equal((await leases.holders(shard + 1))[shard]?.owner, undefined);
        assert.equal(await leases.release(shard, "host-a", first), false);
        const second = await leases.acquire(shard, "host-b", longTtlMs);
        assert.ok(second !== undefined && second > first, `${second} > ${first}`);
      },
    },
    {
      name: "renewal and re-acquisition push the expiry out by a full TTL",
      run: async () => {
        const { leases, elapse } = await createSubject();
        const [renewed, reacquired] = [freshShard(), freshShard()];
        const ttlMs = 1_000;
        const token = (await leases.acquire(renewed, "host-a", ttlMs))!;
        const other = (await leases.acquire(reacquired, "host-a", ttlMs))!;
        await elapse(600);
        assert.deepEqual(await leases.renew("host-a", [{ shard: renewed, token }], ttlMs), [
          "held",
        ]);
        assert.equal(await leases.acquire(reacquired, "host-a", ttlMs), other);
        await elapse(600);
        // Past the first TTL, within the TTL since the renewal: still held.
        assert.equal(await leases.acquire(renewed, "host-b", ttlMs), undefined);
        assert.equal(await leases.acquire(reacquired, "host-b", ttlMs), undefined);
        assert.deepEqual(await leases.renew("host-a", [{ shard: renewed, token }], ttlMs), [
          "held",
        ]);
      },
    },
    {
      name: "holders lists every shard below the count, with owner, token and the remaining time of held ones",
      run: async () => {
        const { leases } = await createSubject();
        const [held, free] = [freshShard(), freshShard()];
        const token = (await leases.acquire(held, "host-a", longTtlMs))!;
        const holders = await leases.holders(free + 1);
        assert.deepEqual(
          holders.map((holder) => holder.shard),
          Array.from({ length: free + 1 }, (_, shard) => shard),
        );
        const holder = holders[held]!;
        assert.equal(holder.owner, "host-a");
        assert.equal(holder.token, token);
        assert.ok(
          holder.remainingMs !== undefined &&
            holder.remainingMs > 0 &&
            holder.remainingMs <= longTtlMs,
          `remainingMs ${holder.remainingMs} within (0, ${longTtlMs}]`,
        );
        assert.deepEqual(holders[free], {
          shard: free,
          owner: undefined,
          token: undefined,
          remainingMs: undefined,
        });
        assert.deepEqual(await leases.holders(0), []);
      },
    },
  ];
}
