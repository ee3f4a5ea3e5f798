import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { counterKind } from "../fixtures/counter-machine.js";
import { startCluster, type Cluster } from "../support/cluster.js";
import { waitFor } from "../support/wait-for.js";

describe("failover", () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster({ shardCount: 64 });
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  it("20,000 messages to 200 counters with a host SIGKILLed midway: no loss, no double count", async () => {
    const hosts = await Promise.all([
      cluster.startHost(),
      cluster.startHost(),
      cluster.startHost(),
    ]);
    await cluster.waitForOwners(
      hosts.map((host) => host.hostId),
      20_000,
    );
    const actors = Array.from({ length: 200 }, (_, index) => `counter/f${index}`);
    const victim = hosts[1];
    const survivors = hosts.filter((host) => host !== victim).map((host) => host.hostId);

    // 100 rounds of one message per actor; `by` varies so a double count shows.
    let killedAtRound = -1;
    for (let round = 1; round <= 100; round += 1) {
      await Promise.all(
        actors.map((actor) => cluster.send(actor, "counter.increment", { by: round })),
      );
      if (round === 40) {
        victim.signal("SIGKILL");
        killedAtRound = round;
      }
    }
    expect(killedAtRound).toBe(40);
    const expected = (100 * 101) / 2;
    await waitFor(
      async () => {
        const contexts = await Promise.all(
          actors.map((actor) => cluster.context<{ count: number }>(actor)),
        );
        return contexts.every((context) => context?.count === expected);
      },
      { timeoutMs: 60_000, description: `every counter at ${expected}` },
    );
    for (const actor of actors) {
      const stored = await cluster.snapshots.load(actor);
      expect(stored?.record.generation).toBe(100);
    }
    await cluster.waitForOwners(survivors, 20_000);
    for (const actor of actors.slice(0, 40)) {
      const report = await cluster.replay(actor, counterKind);
      expect(report.reproduces).toBe(true);
      expect(report.messagesRead).toBe(100);
    }
  }, 120_000); // its waits allow 60 s + 2 × 20 s: on a loaded machine a wait fails with its description first
});
