import { setTimeout as sleep } from "node:timers/promises";
import { ActorHost, ManualClock, systemClock, type HostSettingsInput } from "@troupe/runtime";
import { describe, expect, it } from "vitest";
import { counterKind, type CounterContext } from "../fixtures/counter-machine.js";
import { startCluster, type Cluster } from "../support/cluster.js";
import { waitFor } from "../support/wait-for.js";

// In-process hosts log at `TROUPE_LOG_LEVEL`; keep them as quiet as the child processes.
process.env.TROUPE_LOG_LEVEL ??= "warn";

/** An in-process host on `clock`, waited for until it owns every shard. */
async function startHost(
  cluster: Cluster,
  clock: ManualClock,
  settings: HostSettingsInput,
): Promise<ActorHost> {
  const host = await ActorHost.start({
    nats: cluster.servers.natsUrl,
    redis: cluster.servers.redisUrl,
    kinds: [counterKind],
    clock,
    settings: { shardCount: cluster.shardCount, ...settings },
  });
  await waitFor(() => host.ownedShards.length === cluster.shardCount, {
    timeoutMs: 10_000,
    description: "the host owns every shard",
  });
  return host;
}

describe("the host reads time from the clock it is given", () => {
  it("an idle actor is passivated once the manual clock passes passivateAfterMs (an hour real time never reaches)", async () => {
    await using cluster = await startCluster({ shardCount: 4 });
    const clock = new ManualClock(systemClock.now());
    const host = await startHost(cluster, clock, {
      passivateAfterMs: 3_600_000,
      // Far beyond the jump below, so the host's own lease deadline does not lapse.
      leaseTtlMs: 7_200_000,
    });
    try {
      const actor = "counter/manual-clock-1";
      await cluster.send(actor, "counter.increment", { by: 4 });
      await cluster.waitForCounts([actor], 4, 10_000);
      // Several housekeeping ticks (every 250 ms) go by; on the frozen clock it is not idle yet.
      await sleep(1_000);
      expect(host.activeActorCount).toBe(1);

      clock.advance(3_600_001);
      await waitFor(() => host.activeActorCount === 0, {
        timeoutMs: 5_000,
        description: "the actor passivated on the manual clock",
      });
      expect(host.ownedShards).toHaveLength(cluster.shardCount);

      // It comes back from its snapshot with its state.
      await cluster.send(actor, "counter.increment", { by: 1 });
      await cluster.waitForCounts([actor], 5, 10_000);
      expect(host.activeActorCount).toBe(1);
      const stored = await cluster.snapshots.load(actor);
      expect(stored?.record.generation).toBe(2);
      expect((stored?.record.state as { context: CounterContext }).context.count).toBe(5);
    } finally {
      await host.stop();
    }
  });

  it("a lease whose renewal deadline passed on the manual clock is treated as lost, though Redis still holds it", async () => {
    await using cluster = await startCluster({ shardCount: 4 });
    const clock = new ManualClock(systemClock.now());
    // Acquired at start and then never renewed nor re-acquired within the test:
    // only the clock decides when the host stops trusting its leases.
    const leaseTtlMs = 60_000;
    const host = await startHost(cluster, clock, {
      leaseTtlMs,
      leaseRenewIntervalMs: 600_000,
      rebalanceIntervalMs: 600_000,
      membershipTtlMs: 600_000,
      // One rebalance only (at start): with no settling window it acquires every shard.
      membershipSettleMs: 0,
    });
    try {
      const owned = host.ownedShards;
      expect(owned).toEqual([0, 1, 2, 3]);

      // Exactly the TTL since the acquisition: still held (a few lease checks, every 100 ms).
      clock.advance(leaseTtlMs);
      await sleep(500);
      expect(host.ownedShards).toEqual(owned);

      // One ms more: the deadline passed, the host stops processing every shard at once.
      clock.advance(1);
      await waitFor(() => host.ownedShards.length === 0, {
        timeoutMs: 2_000,
        description: "the host dropped every shard",
      });
      // Redis's clock has not moved an hour: the leases are still there, still this host's.
      expect(await cluster.owners()).toEqual(owned.map(() => host.hostId));
    } finally {
      await host.stop();
    }
  });
});
