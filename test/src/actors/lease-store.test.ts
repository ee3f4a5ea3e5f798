import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { RedisKeys } from "@troupe/protocol/internal";
import { RedisLeaseStore, leaseStoreContractCases } from "@troupe/runtime/internal";
import { describe, expect, it } from "vitest";
import { useRedisSuite } from "../support/redis-suite.js";

// Each suite its own key prefix: the contract leases shards 0 to 31 of it.
const keys = new RedisKeys(`test-leases-${randomUUID()}`);

const client = useRedisSuite();

describe("RedisLeaseStore keeps the LeaseStore contract on a real Redis", () => {
  for (const { name, run } of leaseStoreContractCases(() => ({
    leases: new RedisLeaseStore(client(), keys),
    // TTLs run on the Redis server's clock: let real time pass.
    elapse: (ms) => sleep(ms),
  }))) {
    it(name, run);
  }
});

describe("RedisLeaseStore on a real Redis", () => {
  it("keeps a lease as a hash <prefix>:{<shard>}:lease with the TTL and its commit count, and the last token under <prefix>:{<shard>}:fence", async () => {
    const layout = new RedisKeys(`test-leases-${randomUUID()}`);
    const leases = new RedisLeaseStore(client(), layout);
    expect(await leases.acquire(7, "host-a", 5_000)).toBe(1);
    expect(layout.lease(7)).toBe(`${layout.prefix}:{7}:lease`);
    expect(layout.fence(7)).toBe(`${layout.prefix}:{7}:fence`);
    expect(await client().hgetall(layout.lease(7))).toEqual({
      owner: "host-a",
      token: "1",
      writes: "0",
    });
    const ttlMs = await client().pttl(layout.lease(7));
    expect(ttlMs).toBeGreaterThan(4_000);
    expect(ttlMs).toBeLessThanOrEqual(5_000);
    expect(await leases.release(7, "host-a", 1)).toBe(true);
    expect(await client().exists(layout.lease(7))).toBe(0);
    // The token counter outlives the lease: the next owner's token is greater.
    expect(await client().get(layout.fence(7))).toBe("1");
    expect(await leases.acquire(7, "host-b", 5_000)).toBe(2);
  });
});
