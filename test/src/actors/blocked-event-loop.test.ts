import { ActorHost, type HostSettingsInput } from "@troupe/runtime";
import { describe, expect, it } from "vitest";
import { counterKind } from "../fixtures/counter-machine.js";
import { capturingLogger } from "../support/capturing-logger.js";
import { startCluster, type Cluster } from "../support/cluster.js";
import { waitFor } from "../support/wait-for.js";

// Issue #31, decision 0047: a host whose event loop is blocked by synchronous
// work longer than the lease TTL keeps its leases (they are renewed on a
// worker thread), up to maxEventLoopBlockMs; past it they lapse.

const LEASE_TTL_MS = 1_000;

/** Blocks this thread's event loop for `ms` (synchronous work, as a large prompt or a tool that computes). */
function blockEventLoop(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy
  }
}

/** The fencing token of every shard's lease, as Redis holds them. */
async function tokens(cluster: Cluster): Promise<(number | undefined)[]> {
  return (await cluster.leases.holders(cluster.shardCount)).map((holder) => holder.token);
}

async function startHost(cluster: Cluster, settings: HostSettingsInput) {
  const { logger, lines } = capturingLogger();
  const host = await ActorHost.start({
    nats: cluster.servers.natsUrl,
    redis: cluster.servers.redisUrl,
    kinds: [counterKind],
    logger,
    settings: {
      shardCount: cluster.shardCount,
      leaseTtlMs: LEASE_TTL_MS,
      leaseRenewIntervalMs: 200,
      membershipSettleMs: 0,
      ...settings,
    },
  });
  await waitFor(() => host.ownedShards.length === cluster.shardCount, {
    timeoutMs: 10_000,
    description: "the host owns every shard",
  });
  return { host, lines };
}

describe("a host whose event loop is blocked (issue #31)", () => {
  it("keeps every lease through a block of 3.5 × the lease TTL, and reports the delay", async () => {
    await using cluster = await startCluster({ shardCount: 8 });
    const { host, lines } = await startHost(cluster, {});
    try {
      expect(host.leaseRenewal).toBe("thread");
      const before = await tokens(cluster);
      blockEventLoop(3.5 * LEASE_TTL_MS);
      // The renewal tick after the block reads the thread's renewals, not stale ones.
      await waitFor(() => host.eventLoopDelay.maxMs >= 3 * LEASE_TTL_MS, {
        timeoutMs: 15_000,
        description: "a window of the event-loop monitor that saw the block",
      });
      expect(host.ownedShards).toHaveLength(cluster.shardCount);
      // The same grants: a lease lost and taken again would have a new token.
      expect(await tokens(cluster)).toEqual(before);
      expect(lines.filter((line) => line.message.startsWith("lease lost"))).toEqual([]);
      expect(host.eventLoopDelay.delayed).toBe(true);
      const warning = lines.find((line) => line.message.startsWith("the event loop was blocked"));
      expect(warning?.fields).toMatchObject({ leaseTtlMs: LEASE_TTL_MS, warnAboveMs: 250 });
      expect(warning?.fields.eventLoopDelayMaxMs).toBeGreaterThanOrEqual(3 * LEASE_TTL_MS);

      // The shards serve as before.
      await cluster.send("counter/blocked-1", "counter.increment", { by: 2 });
      await cluster.waitForCounts(["counter/blocked-1"], 2, 10_000);
    } finally {
      await host.stop();
    }
  });

  it("renewing on the event loop instead, the same block costs every lease", async () => {
    await using cluster = await startCluster({ shardCount: 8 });
    const { host, lines } = await startHost(cluster, { leaseRenewal: "main" });
    try {
      expect(host.leaseRenewal).toBe("main");
      const before = await tokens(cluster);
      blockEventLoop(3.5 * LEASE_TTL_MS);
      await waitFor(
        () => lines.filter((line) => line.message.startsWith("lease lost")).length >= 8,
        { timeoutMs: 10_000, description: "every lease reported lost" },
      );
      // The host takes them again, under new grants.
      await waitFor(
        async () => (await tokens(cluster)).every((token, shard) => token! > before[shard]!),
        { timeoutMs: 15_000, description: "every shard leased again under a new token" },
      );
    } finally {
      await host.stop();
    }
  });

  it("past maxEventLoopBlockMs the thread stops renewing: the leases lapse", async () => {
    await using cluster = await startCluster({ shardCount: 8 });
    const { host, lines } = await startHost(cluster, { maxEventLoopBlockMs: 1_000 });
    try {
      expect(host.leaseRenewal).toBe("thread");
      const before = await tokens(cluster);
      blockEventLoop(1_000 + 3 * LEASE_TTL_MS);
      await waitFor(
        async () => (await tokens(cluster)).every((token, shard) => token! > before[shard]!),
        { timeoutMs: 15_000, description: "every shard leased again under a new token" },
      );
      expect(
        lines.filter(
          (line) => line.message.startsWith("lease lost") || line.fields.reason === "expired",
        ).length,
      ).toBeGreaterThanOrEqual(8);
    } finally {
      await host.stop();
    }
  });
});
