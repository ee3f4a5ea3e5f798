import { describe, expect, it } from "vitest";
import { ManualClock } from "@troupe/step";
import { InMemoryLeaseStore } from "./in-memory-lease-store.js";
import { leaseStoreContractCases } from "./lease-store-contract.js";

describe("InMemoryLeaseStore keeps the LeaseStore contract (on a manual clock)", () => {
  const clock = new ManualClock(1_767_225_600_000);
  const leases = new InMemoryLeaseStore({ clock });
  const elapse = (ms: number) => Promise.resolve(void clock.advance(ms));
  for (const { name, run } of leaseStoreContractCases(() => ({ leases, elapse }))) it(name, run);
});

describe("InMemoryLeaseStore", () => {
  it("holds a lease up to and including ttlMs after the acquisition, as a Redis key with that TTL", async () => {
    const clock = new ManualClock(1_000);
    const leases = new InMemoryLeaseStore({ clock });
    const token = await leases.acquire(0, "host-a", 2_000);
    expect(token).toBe(1);
    clock.advance(2_000);
    expect(leases.currentToken(0)).toBe(1);
    expect((await leases.holders(1))[0]?.remainingMs).toBe(0);
    clock.advance(1);
    expect(leases.currentToken(0)).toBeUndefined();
    expect(await leases.acquire(0, "host-b", 2_000)).toBe(2);
  });
});
