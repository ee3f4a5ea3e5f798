import type { Subscription } from "@nats-io/transport-node";
import { TroupeClient } from "@troupe/client";
import { decodeEvent } from "@troupe/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nearestRank } from "../bench/latency-summary.js";
import { startCluster, type Cluster } from "../support/cluster.js";
import { waitFor } from "../support/wait-for.js";

// docs/decisions/0057: a host starts queued work by scheduling class. 2,000
// batch runs are queued on two hosts, then 20 interactive messages arrive:
// each interactive run must start (`run.started`) within 1 s of its publish,
// and every batch run must still complete.

const AGENT_HOST = "test/src/fixtures/agent-host.ts";
const BATCH_RUNS = 2_000;
const INTERACTIVE_RUNS = 20;
/** Most a run may take from its publish to its `run.started`, ms. */
const INTERACTIVE_START_BUDGET_MS = 1_000;

describe("priority classes", () => {
  let cluster: Cluster;
  let client: TroupeClient;
  const started = new Map<string, number>();
  const startedPriority = new Map<string, unknown>();
  const finished = new Set<string>();
  const subscriptions: Subscription[] = [];

  beforeAll(async () => {
    // A small concurrency, so the batch work waits in the hosts' schedulers
    // (where the class orders it) instead of all running at once.
    cluster = await startCluster({ hostSettings: { maxConcurrency: 8 } });
    const hosts = await Promise.all([
      cluster.startHost({}, { entry: AGENT_HOST, readyTimeoutMs: 90_000 }),
      cluster.startHost({}, { entry: AGENT_HOST, readyTimeoutMs: 90_000 }),
    ]);
    await cluster.waitForBalance(
      hosts.map((host) => host.hostId),
      30_000,
    );
    client = await TroupeClient.connect({ natsUrl: cluster.servers.natsUrl, prefix: "troupe" });
    // Core subscriptions to two event types of every session: `troupe.session.<id>.events.<type>`.
    const follow = (type: string, record: (sessionId: string, payload: unknown) => void) => {
      subscriptions.push(
        cluster.nats.subscribe(`troupe.session.*.events.${type}`, {
          callback: (error, message) => {
            if (error !== null) return;
            const sessionId = message.subject.split(".")[2] ?? "";
            record(sessionId, decodeEvent(message.data, { subject: message.subject }).payload);
          },
        }),
      );
    };
    follow("run.started", (sessionId, payload) => {
      if (!started.has(sessionId)) started.set(sessionId, performance.now());
      startedPriority.set(sessionId, (payload as { priority?: unknown }).priority);
    });
    follow("run.completed", (sessionId) => finished.add(sessionId));
    await cluster.nats.flush();
  }, 180_000);

  afterAll(async () => {
    for (const subscription of subscriptions) subscription.unsubscribe();
    await client?.close();
    await cluster?.stop();
  });

  it("starts 20 interactive runs within 1 s each behind 2,000 queued batch runs, and completes every batch run", async () => {
    const batch = Array.from({ length: BATCH_RUNS }, (_, index) => `batch-${index}`);
    await Promise.all(
      batch.map((sessionId) => client.send(sessionId, { text: "hello", priority: "batch" })),
    );
    // The batch work is queued: most batch runs have not completed yet.
    const completedBeforeInteractive = finished.size;
    expect(completedBeforeInteractive).toBeLessThan(BATCH_RUNS / 2);

    const interactive = Array.from({ length: INTERACTIVE_RUNS }, (_, index) => `chat-${index}`);
    const publishedAt = new Map<string, number>();
    await Promise.all(
      interactive.map((sessionId) => {
        publishedAt.set(sessionId, performance.now());
        return client.send(sessionId, { text: "hello", priority: "interactive" });
      }),
    );
    await waitFor(() => interactive.every((sessionId) => started.has(sessionId)), {
      timeoutMs: 30_000,
      description: "every interactive run started",
    });
    const latenciesMs = interactive.map(
      (sessionId) => (started.get(sessionId) ?? 0) - (publishedAt.get(sessionId) ?? 0),
    );
    const sorted = [...latenciesMs].sort((a, b) => a - b);
    const batchDoneAtInteractiveStart = finished.size;
    console.log(
      `interactive publish → run.started behind ${BATCH_RUNS} batch runs: ` +
        `p50 ${nearestRank(sorted, 0.5).toFixed(0)} ms, p99 ${nearestRank(sorted, 0.99).toFixed(0)} ms, ` +
        `max ${(sorted.at(-1) ?? 0).toFixed(0)} ms; batch runs completed by then: ` +
        `${batchDoneAtInteractiveStart} (${completedBeforeInteractive} before the first interactive publish)`,
    );
    expect(
      latenciesMs.filter((latencyMs) => latencyMs > INTERACTIVE_START_BUDGET_MS),
      "interactive runs that started later than 1 s after their publish (ms)",
    ).toEqual([]);
    // The batch work was still queued while the interactive runs started.
    expect(batchDoneAtInteractiveStart).toBeLessThan(BATCH_RUNS);
    expect(interactive.map((sessionId) => startedPriority.get(sessionId))).toEqual(
      interactive.map(() => "interactive"),
    );

    await waitFor(() => batch.every((sessionId) => finished.has(sessionId)), {
      timeoutMs: 120_000,
      description: `all ${BATCH_RUNS} batch runs completed`,
    });
    expect(batch.map((sessionId) => startedPriority.get(sessionId))).toEqual(
      batch.map(() => "batch"),
    );
  }, 240_000);
});
