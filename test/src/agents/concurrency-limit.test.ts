import type { Subscription } from "@nats-io/transport-node";
import { TroupeClient } from "@troupe/client";
import { RedisKeys } from "@troupe/protocol/internal";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  IN_FLIGHT_KEY,
  LIMITED_AGENT_LIMIT,
  MAX_IN_FLIGHT_KEY,
} from "../fixtures/limited-agent.js";
import { startCluster, type Cluster } from "../support/cluster.js";
import { waitFor } from "../support/wait-for.js";

// docs/decisions/0058: an agent limited to 5 concurrent model calls, served by
// 3 hosts, gets 100 runs at once: the model (outside the hosts) never sees
// more than 5 of its streams in flight, sees 5 at some point (the limit was
// reached: the runs contended), and every run completes.

const LIMITED_HOST = "test/src/fixtures/limited-agent-host.ts";
const HOSTS = 3;
const RUNS = 100;

describe("a fleet-wide concurrency limit on an agent's model calls", () => {
  let cluster: Cluster;
  let client: TroupeClient;
  const completed = new Set<string>();
  let subscription: Subscription | undefined;

  beforeAll(async () => {
    cluster = await startCluster({ shardCount: 16 });
    const hosts = await Promise.all(
      Array.from({ length: HOSTS }, () =>
        cluster.startHost({}, { entry: LIMITED_HOST, readyTimeoutMs: 90_000 }),
      ),
    );
    await cluster.waitForBalance(
      hosts.map((host) => host.hostId),
      30_000,
    );
    client = await TroupeClient.connect({ natsUrl: cluster.servers.natsUrl, prefix: "troupe" });
    // `troupe.session.<id>.events.run.completed` of every session.
    subscription = cluster.nats.subscribe("troupe.session.*.events.run.completed", {
      callback: (error, message) => {
        if (error === null) completed.add(message.subject.split(".")[2] ?? "");
      },
    });
    await cluster.nats.flush();
  }, 180_000);

  afterAll(async () => {
    subscription?.unsubscribe();
    await client?.close();
    await cluster?.stop();
  });

  it("keeps at most 5 model calls in flight across 3 hosts while 100 runs complete", async () => {
    const sessions = Array.from({ length: RUNS }, (_, index) => `limited-${index}`);
    const startedAt = performance.now();
    await Promise.all(sessions.map((sessionId) => client.send(sessionId, { text: "hello" })));
    await waitFor(() => sessions.every((sessionId) => completed.has(sessionId)), {
      timeoutMs: 120_000,
      description: `all ${RUNS} runs completed`,
    });
    const elapsedMs = performance.now() - startedAt;
    const maxInFlight = Number(await cluster.redis.get(MAX_IN_FLIGHT_KEY));
    console.log(
      `${RUNS} runs on ${HOSTS} hosts, limit ${LIMITED_AGENT_LIMIT}: max ${maxInFlight} model calls in flight, ` +
        `all completed in ${elapsedMs.toFixed(0)} ms`,
    );
    expect(maxInFlight).toBe(LIMITED_AGENT_LIMIT);
    // Every stream ended, and every slot was given back before its run completed
    // (the set is deleted when empty).
    expect(Number(await cluster.redis.get(IN_FLIGHT_KEY))).toBe(0);
    const slots = new RedisKeys("troupe", 16).modelCallSlots("limited");
    expect(await cluster.redis.exists(slots)).toBe(0);
  }, 180_000);
});
