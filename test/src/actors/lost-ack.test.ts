import { parseAddress, shardOf } from "@troupe/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { counterKind } from "../fixtures/counter-machine.js";
import { startCluster, type Cluster } from "../support/cluster.js";
import { waitFor } from "../support/wait-for.js";

describe("exactly-once transitions", () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster({ shardCount: 8 });
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  it("a message redelivered after a lost ack does not cause a second transition", async () => {
    // Every first delivery stays unacked, as if the ack were lost: JetStream
    // redelivers each message after AckWait (1 s) to the same owner.
    const host = await cluster.startHost({ ackWaitMs: 1000, testFaults: { dropFirstAck: true } });
    await cluster.waitForOwners([host.hostId], 15_000);
    for (let index = 1; index <= 10; index += 1) {
      await cluster.send("counter/lost-ack", "counter.increment", { by: index });
    }
    await waitFor(
      async () => (await cluster.context<{ count: number }>("counter/lost-ack"))?.count === 55,
      {
        timeoutMs: 15_000,
        description: "count reaches 55",
      },
    );
    // Every message is delivered twice (20 deliveries in all) and finally acked.
    const consumerName = `troupe-shard-${shardOf(parseAddress("counter/lost-ack"), cluster.shardCount)}`;
    await waitFor(
      async () => {
        const info = await cluster.jsm.consumers.info(cluster.streams.inbox, consumerName);
        return info.delivered.consumer_seq >= 20 && info.num_ack_pending === 0;
      },
      { timeoutMs: 20_000, description: "all ten messages redelivered and acked" },
    );
    const stored = await cluster.snapshots.load("counter/lost-ack");
    expect((stored!.record.state as { context: { count: number } }).context.count).toBe(55);
    // One generation per message: the redeliveries were skipped, not applied.
    expect(stored!.record.generation).toBe(10);
    expect(stored!.record.eventSeq).toBe(10);
    const replay = await cluster.replay("counter/lost-ack", counterKind);
    expect(replay.reproduces).toBe(true);
    expect(replay.messagesRead).toBe(10);
  });
});
