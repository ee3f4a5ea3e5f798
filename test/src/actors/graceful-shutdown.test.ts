import { ActorHost } from "@troupe/runtime";
import { RedisKeys } from "@troupe/protocol/internal";
import { describe, expect, it } from "vitest";
import { decodeEvent } from "@troupe/protocol";
import { counterEventSchemas, counterKind } from "../fixtures/counter-machine.js";
import { startCluster } from "../support/cluster.js";
import { HostProcessExitedError } from "../support/host-process-exited-error.js";

describe("graceful shutdown", () => {
  it("a SIGTERMed host exits 0 having released its leases; the survivor takes every shard and no message is lost or applied twice", async () => {
    await using cluster = await startCluster({ shardCount: 16 });
    const [leaving, staying] = await Promise.all([cluster.startHost(), cluster.startHost()]);
    await cluster.waitForOwners([leaving.hostId, staying.hostId], 20_000);
    const actors = Array.from({ length: 50 }, (_, index) => `counter/g${index}`);
    // Every event a plain subscriber sees, as (actor, seq): a graceful hand-over
    // must not make the next owner publish an already published outbox again.
    const seen: string[] = [];
    const subscription = cluster.nats.subscribe("troupe.counter.*.events.>", {
      callback: (error, message) => {
        if (error !== null) return;
        const event = decodeEvent(message.data, {
          contentType: message.headers?.get("Content-Type") || undefined,
          schemas: counterEventSchemas,
        });
        seen.push(`${event.meta.actor}#${event.meta.seq}`);
      },
    });

    // Rounds 1–5 are applied before the signal; 6–10 are published just before it, so
    // some are typically still queued or in hand when the host starts draining.
    for (let round = 1; round <= 5; round += 1) await cluster.incrementAll(actors, round);
    await cluster.waitForCounts(actors, 15, 15_000);
    await Promise.all([6, 7, 8, 9, 10].map((round) => cluster.incrementAll(actors, round)));
    const leasedBefore = (await cluster.owners()).filter((owner) => owner === leaving.hostId);
    expect(leasedBefore.length).toBeGreaterThan(0);

    leaving.signal("SIGTERM");
    const exit = await leaving.exited;
    expect(exit).toEqual({ code: 0, signal: null });
    // Right after the exit: a lease left to lapse would still be held for up to
    // its 2 000 ms TTL; a released one is gone.
    const holders = await cluster.leases.holders(cluster.shardCount);
    expect(holders.filter((holder) => holder.owner === leaving.hostId)).toEqual([]);

    await cluster.waitForOwners([staying.hostId], 10_000);
    for (let round = 11; round <= 15; round += 1) await cluster.incrementAll(actors, round);
    const expected = (15 * 16) / 2;
    await cluster.waitForCounts(actors, expected, 20_000);
    for (const actor of actors) {
      const stored = await cluster.snapshots.load(actor);
      // One generation per message: nothing was applied twice across the hand-over.
      expect(stored?.record.generation).toBe(15);
      expect(stored?.record.eventSeq).toBe(15);
    }
    subscription.unsubscribe();
    expect(seen).toHaveLength(50 * 15);
    expect(new Set(seen).size).toBe(seen.length);
    for (const actor of actors.slice(0, 5)) {
      const report = await cluster.replay(actor, counterKind);
      expect(report.reproduces).toBe(true);
      expect(report.messagesRead).toBe(15);
    }
    expect(staying.child.exitCode).toBeNull();
    expect(leaving.stderr()).toMatch(/SIGTERM received, draining/);
  });

  it("a host stopped while it is still acquiring its first shards releases those leases too", async () => {
    await using cluster = await startCluster({ shardCount: 16 });
    // In-process hosts log at `TROUPE_LOG_LEVEL`; keep it as quiet as the child processes.
    process.env.TROUPE_LOG_LEVEL ??= "warn";
    // `start` resolves once the first rebalance is under way; stop at once, mid-acquisition.
    const host = await ActorHost.start({
      nats: cluster.servers.natsUrl,
      redis: cluster.servers.redisUrl,
      kinds: [counterKind],
      settings: { shardCount: cluster.shardCount },
    });
    await host.stop();

    const keys = new RedisKeys("troupe");
    const shards = Array.from({ length: cluster.shardCount }, (_, shard) => shard);
    // Every shard's lease was issued (fencing token 1) before the stop completed ...
    expect(await cluster.redis.mget(shards.map((shard) => keys.fence(shard)))).toEqual(
      shards.map(() => "1"),
    );
    // ... and none is left to lapse.
    const holders = await cluster.leases.holders(cluster.shardCount);
    expect(holders.filter((holder) => holder.owner === host.hostId)).toEqual([]);
    expect(host.ownedShards).toEqual([]);
  });

  it("a host started with another shard count than the deployment's refuses to start and names both counts", async () => {
    await using cluster = await startCluster({ shardCount: 16 });
    const running = await cluster.startHost();
    await cluster.waitForOwners([running.hostId], 10_000);

    const refused = await cluster.startHost({ shardCount: 32 }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(HostProcessExitedError);
    const { code, signal, stdout, stderr } = refused as HostProcessExitedError;
    expect(signal).toBeNull();
    expect(code).toBe(1);
    const output = `${stdout}\n${stderr}`;
    expect(output).toMatch(/ShardCountMismatchError/);
    expect(output).toMatch(/started with shardCount 32, but the deployment was created with 16/);

    // The deployment is untouched: the recorded count stays, the running host keeps every shard.
    const keys = new RedisKeys("troupe");
    expect(await cluster.redis.hget(keys.deployment(), "shardCount")).toBe("16");
    expect(await cluster.redis.zrange(keys.hosts(), "0", "-1")).toEqual([running.hostId]);
    const owners = await cluster.owners();
    expect(owners).toEqual(Array.from({ length: cluster.shardCount }, () => running.hostId));
  });
});
