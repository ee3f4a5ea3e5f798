/**
 * More hosts than shards (issue #17): a host that gets no shard starts, holds
 * nothing and stands by; it takes a shard over when an owner leaves.
 */
import { ActorHost } from "@troupe/runtime";
import { describe, expect, it } from "vitest";
import { counterKind } from "../fixtures/counter-machine.js";
import { capturingLogger } from "../support/capturing-logger.js";
import { startCluster } from "../support/cluster.js";
import { waitFor } from "../support/wait-for.js";

const SHARDS = 2;

describe("more hosts than shards", () => {
  it("three hosts on two shards: one idles with nothing in memory, then takes over when an owner stops", async () => {
    await using cluster = await startCluster({ shardCount: SHARDS });
    const start = () =>
      ActorHost.start({
        nats: cluster.servers.natsUrl,
        redis: cluster.servers.redisUrl,
        kinds: [counterKind],
        settings: { shardCount: SHARDS },
        logger: capturingLogger().logger,
      });
    const hosts = await Promise.all([start(), start(), start()]);
    try {
      await waitFor(
        () =>
          hosts.every((host) => host.members.length === 3) &&
          hosts.reduce((sum, host) => sum + host.ownedShards.length, 0) === SHARDS,
        { timeoutMs: 20_000, description: "both shards owned, every host seeing three members" },
      );
      const idle = hosts.filter((host) => host.ownedShards.length === 0);
      expect(idle.length).toBeGreaterThanOrEqual(1);

      const actors = Array.from({ length: 10 }, (_, index) => `counter/standby-${index}`);
      await cluster.incrementAll(actors, 1);
      await cluster.waitForCounts(actors, 1, 15_000);
      for (const host of idle) {
        expect(host.retention).toEqual({
          actorCells: 0,
          runningEffects: 0,
          shards: 0,
          releasing: 0,
          orphanWorkers: 0,
        });
      }

      // Every owner leaves: the standby hosts take both shards and go on.
      const owners = hosts.filter((host) => host.ownedShards.length > 0);
      await Promise.all(owners.map((host) => host.stop()));
      await waitFor(() => idle.reduce((sum, host) => sum + host.ownedShards.length, 0) === SHARDS, {
        timeoutMs: 20_000,
        description: "the standby hosts own both shards",
      });
      await cluster.incrementAll(actors, 1);
      await cluster.waitForCounts(actors, 2, 15_000);
    } finally {
      await Promise.all(hosts.map((host) => host.stop()));
    }
  }, 60_000);
});
