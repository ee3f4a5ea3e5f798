import { RedisKeys } from "@troupe/protocol/internal";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCluster, type Cluster } from "../support/cluster.js";
import { sendUntilIdle } from "../support/session-events.js";
import { waitFor } from "../support/wait-for.js";

const AGENT_HOST = "test/src/fixtures/agent-host.ts";
/** Per-effect counters (effect runner, model-call handler): not the snapshot store's keys. */
const COUNTER_KEY = /^troupe:(effect-host-run|model-stream-attempt):/;

describe("what an idle session leaves in Redis (issue #12)", () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster({ shardCount: 8 });
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  it("after one turn, passivation and historyRetentionMs, a session leaves exactly its session and run actors' latest generations, outboxes cut off", async () => {
    const host = await cluster.startHost(
      { passivateAfterMs: 300, historyRetentionMs: 1000 },
      { entry: AGENT_HOST },
    );
    await cluster.waitForOwners([host.hostId], 20_000);
    const sessionId = "idle-keys-1";
    await sendUntilIdle(cluster, sessionId, "hello");
    const keys = new RedisKeys("troupe", 8);
    const expected = [keys.actor(`run/${sessionId}`), keys.actor(`session/${sessionId}`)];
    const sessionKeys = async () =>
      (await cluster.redis.keys(`troupe:*${sessionId}*`))
        .filter((key) => !COUNTER_KEY.test(key))
        .sort();
    await waitFor(async () => JSON.stringify(await sessionKeys()) === JSON.stringify(expected), {
      timeoutMs: 20_000,
      description: `only ${expected.join(" and ")} left`,
    });
    for (const actor of [`session/${sessionId}`, `run/${sessionId}`]) {
      expect(await cluster.redis.type(keys.actor(actor))).toBe("string");
      expect(await cluster.redis.pttl(keys.actor(actor))).toBe(-1);
      const stored = await cluster.snapshots.load(actor);
      expect(stored?.outboxConfirmed).toBe(true);
      expect(stored?.record.outbox).toEqual([]);
      expect(stored?.record.effects).toEqual([]);
      expect(await cluster.snapshots.history(actor)).toEqual([]);
    }
    // Each stored value is the header and the record alone: a few hundred bytes.
    const bytes = await Promise.all(
      expected.map(async (key) => (await cluster.redis.getBuffer(key))!.byteLength),
    );
    for (const size of bytes) expect(size).toBeLessThan(1024);
  });
});
