import { decodeEvent, parseAddress, shardOf } from "@troupe/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { counterEventSchemas, counterKind } from "../fixtures/counter-machine.js";
import { startCluster, type Cluster } from "../support/cluster.js";
import { readStream } from "../support/read-stream.js";

describe("fencing", () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster({ shardCount: 16 });
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  it("a zombie host paused past its lease gets none of its writes or outbound messages accepted", async () => {
    const zombie = await cluster.startHost();
    const survivor = await cluster.startHost();
    await cluster.waitForBalance([zombie.hostId, survivor.hostId], 20_000);
    const owners = await cluster.owners();
    const actors = Array.from({ length: 200 }, (_, index) => `counter/z${index}`)
      .filter((actor) => owners[shardOf(parseAddress(actor), cluster.shardCount)] === zombie.hostId)
      .slice(0, 20);
    expect(actors.length).toBe(20);

    for (let round = 0; round < 5; round += 1) await cluster.incrementAll(actors, 1);
    await cluster.waitForCounts(actors, 5, 20_000);

    // A burst, then freeze the owner while it is still working through it.
    await Promise.all(Array.from({ length: 5 }, () => cluster.incrementAll(actors, 1)));
    zombie.signal("SIGSTOP");
    await cluster.waitForOwners([survivor.hostId], 20_000);
    for (let round = 0; round < 5; round += 1) await cluster.incrementAll(actors, 1);
    await cluster.waitForCounts(actors, 15, 20_000);

    // The zombie wakes up believing it still owns its shards.
    zombie.signal("SIGCONT");
    await cluster.waitForOwners([zombie.hostId, survivor.hostId], 20_000);
    for (let round = 0; round < 5; round += 1) await cluster.incrementAll(actors, 1);
    await cluster.waitForCounts(actors, 20, 20_000);

    for (const actor of actors) {
      const stored = await cluster.snapshots.load(actor);
      expect(stored?.record.generation).toBe(20);
      expect(stored?.record.eventSeq).toBe(20);
    }
    // Every published event is the one the accepted snapshot history implies:
    // sequence n carries count n, with no gap and no conflicting duplicate.
    const events = (
      await readStream(
        cluster.js,
        cluster.streams.events,
        "troupe.counter.*.events.counter.changed",
      )
    ).map((message) =>
      decodeEvent(message.data, { contentType: message.contentType, schemas: counterEventSchemas }),
    );
    for (const actor of actors) {
      const mine = events.filter((event) => event.meta.actor === actor);
      expect(mine.map((event) => event.meta.seq)).toEqual(
        Array.from({ length: 20 }, (_, index) => index + 1),
      );
      expect(mine.map((event) => (event.payload as { count: number }).count)).toEqual(
        mine.map((event) => event.meta.seq),
      );
    }
    for (const actor of actors) {
      const report = await cluster.replay(actor, counterKind);
      expect(report.divergence).toBeUndefined();
      expect(report.reproduces).toBe(true);
    }
    // The zombie noticed on its own that its leases were gone, and kept running.
    expect(zombie.stdout()).toMatch(/lease lost/);
    expect(zombie.child.exitCode).toBeNull();
    // Two host starts (each waits ≈ 2 s for the membership to settle) and five
    // waits of up to 20 s: more than vitest's default 30 s on a loaded machine.
  }, 90_000);
});
