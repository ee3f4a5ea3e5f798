import { Redis } from "ioredis";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { metrics } from "@opentelemetry/api";
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from "@opentelemetry/sdk-metrics";
import {
  countPendingApprovals,
  pendingApprovalsWatches,
  watchPendingApprovals,
} from "@troupe/agents/internal";
import { METRICS } from "@troupe/protocol";
import { RedisKeys } from "@troupe/protocol/internal";
import { startCluster, type Cluster } from "../support/cluster.js";
import { followSession } from "../support/session-events.js";
import { waitFor } from "../support/wait-for.js";

const TOOLS_HOST = "test/src/fixtures/tools-host.ts";

// Issue #18: `troupe.approvals.pending` counts the tool calls waiting for an
// approval from the approval timers in the shards' timer sets (decision 0037):
// right whichever host owns the calls, and after the host that asked is gone.
describe("approvals pending (troupe.approvals.pending)", () => {
  let cluster: Cluster;
  let keys: RedisKeys;
  beforeEach(async () => {
    cluster = await startCluster({ shardCount: 8 });
    keys = new RedisKeys("troupe", cluster.shardCount);
  });
  afterEach(async () => {
    metrics.disable();
    await cluster?.stop();
  });

  const pending = () => countPendingApprovals(cluster.redis, keys);

  async function waitForCount(count: number): Promise<void> {
    await waitFor(async () => (await pending()) === count, {
      timeoutMs: 20_000,
      description: `${count} approvals pending`,
    });
  }

  it("counts requested approvals, drops settled and cancelled ones, keeps them across a host restart, and reports them as a gauge", async () => {
    const first = await cluster.startHost({}, { entry: TOOLS_HOST });
    await cluster.waitForOwners([first.hostId], 20_000);
    expect(await pending()).toBe(0);
    const calls: Record<string, unknown> = {};
    for (const session of ["ap-1", "ap-2", "ap-3"]) {
      const log = followSession(cluster.nats, session);
      await cluster.publishToSession(session, {
        type: "user.message",
        agent: "gatekeeper",
        text: `/tool charge {"key":"${session}"}`,
      });
      calls[session] = (await log.first("tool.approval_requested", undefined, 30_000))[
        "toolCallId"
      ];
      log.stop();
    }
    await waitForCount(3);

    // The gauge a host registers reports the same figure when metrics are collected.
    const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
    const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
    expect(metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }))).toBe(true);
    // A connection left by a host that never stopped, to a Redis that is gone
    // (with ioredis's defaults it keeps reconnecting and holds a command for
    // 20 retries): registered first, it must neither blank nor hold the gauge.
    const gone = new Redis({ host: "127.0.0.1", port: 1 });
    gone.on("error", () => undefined);
    const goneWatch = watchPendingApprovals(gone, keys);
    // Another deployment of this process whose host crashed and whose only
    // connection was then closed for good (status "end"): it must not blank
    // this deployment's figure (CI: a test deployment that crashed did).
    const closed = new Redis(cluster.servers.redisUrl);
    await closed.quit();
    await waitFor(() => closed.status === "end", {
      timeoutMs: 5_000,
      description: "the closed connection ended",
    });
    watchPendingApprovals(closed, new RedisKeys("crashed", 4));
    const watch = watchPendingApprovals(cluster.redis, keys);
    // A collection whose count fails (Redis slow to answer under load) reports
    // no value, a gap rather than a false figure: wait for one that counted.
    const collectGauge = async () => {
      await reader.forceFlush();
      return exporter
        .getMetrics()
        .at(-1)
        ?.scopeMetrics.flatMap((scope) => scope.metrics)
        .find((metric) => metric.descriptor.name === METRICS.approvalsPending.name);
    };
    let gauge: Awaited<ReturnType<typeof collectGauge>>;
    await waitFor(async () => (gauge = await collectGauge())?.dataPoints.length === 1, {
      timeoutMs: 20_000,
      description: "a collection of the gauge with its value",
    }).catch(async (error: unknown) => {
      // What the gauge had to count through, and whether a direct count works.
      const startedAt = performance.now();
      const direct = await pending().then(String, (failure: unknown) => String(failure));
      const names = exporter
        .getMetrics()
        .at(-1)
        ?.scopeMetrics.flatMap((scope) => scope.metrics.map((metric) => metric.descriptor.name));
      throw new Error(
        `${String(error)}; watches ${JSON.stringify(pendingApprovalsWatches())}; ` +
          `a direct count: ${direct} in ${(performance.now() - startedAt).toFixed(0)} ms; ` +
          `exported ${JSON.stringify(names)}; gauge ${JSON.stringify(gauge)}`,
      );
    });
    expect(gauge?.dataPoints.map((point) => point.value)).toEqual([3]);
    goneWatch.stop();
    gone.disconnect();
    watch.stop();
    await reader.shutdown();

    // The host that asked stops; the approvals are still pending for its successor.
    await first.stop();
    expect(await pending()).toBe(3);
    const second = await cluster.startHost({}, { entry: TOOLS_HOST });
    await cluster.waitForOwners([second.hostId], 30_000);

    await cluster.publishToSession("ap-1", { type: "tool.approve", toolCallId: calls["ap-1"] });
    await cluster.publishToSession("ap-2", { type: "tool.deny", toolCallId: calls["ap-2"] });
    await waitForCount(1);
    // A cancelled run's waiting call publishes no settlement; its timer goes all the same.
    await cluster.publishToSession("ap-3", { type: "run.cancel" });
    await waitForCount(0);
  });
});
