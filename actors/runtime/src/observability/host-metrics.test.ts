import {
  AggregationTemporality,
  DataPointType,
  MeterProvider,
  MetricReader,
  type MetricData,
} from "@opentelemetry/sdk-metrics";
import { ATTRIBUTES, METRICS, TELEMETRY_SCOPE } from "@troupe/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { HostMetrics, type HostMetricsSources } from "./host-metrics.js";

/** A reader collected on demand (the in-memory reader of the SDK's own tests). */
class CollectingReader extends MetricReader {
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

const providers: MeterProvider[] = [];

function setUp(sources: Partial<HostMetricsSources> = {}) {
  const reader = new CollectingReader({
    aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE,
  });
  const provider = new MeterProvider({ readers: [reader] });
  providers.push(provider);
  const metrics = new HostMetrics(
    {
      shardsOwned: () => 0,
      inboxLag: () => [],
      timersArmed: () => Promise.resolve(0),
      ...sources,
    },
    provider.getMeter(TELEMETRY_SCOPE),
  );
  const collect = async (): Promise<Map<string, MetricData>> => {
    const { resourceMetrics, errors } = await reader.collect();
    expect(errors).toEqual([]);
    const byName = new Map<string, MetricData>();
    for (const scope of resourceMetrics.scopeMetrics)
      for (const metric of scope.metrics) byName.set(metric.descriptor.name, metric);
    return byName;
  };
  return { metrics, collect };
}

/** Data points of one metric as `[attributes, value]` (histograms: count and sum). */
function points(metric: MetricData | undefined): [Record<string, unknown>, unknown][] {
  if (metric === undefined) return [];
  return metric.dataPoints.map((point) => [
    point.attributes,
    metric.dataPointType === DataPointType.HISTOGRAM
      ? {
          count: (point.value as { count: number }).count,
          sum: (point.value as { sum: number }).sum,
        }
      : point.value,
  ]);
}

afterEach(async () => {
  await Promise.all(providers.splice(0).map((provider) => provider.shutdown()));
});

describe("HostMetrics (issue #18)", () => {
  it("counts messages by actor kind and outcome, and times each step per kind", async () => {
    const { metrics, collect } = setUp();
    for (let index = 0; index < 5; index += 1)
      metrics.messageProcessed("counter", "committed", 0.01);
    metrics.messageProcessed("counter", "rejected", 0.02);
    metrics.messageProcessed("session", "skipped", 0.5);
    const collected = await collect();
    expect(collected.get(METRICS.messagesProcessed.name)?.descriptor.unit).toBe("{message}");
    expect(points(collected.get(METRICS.messagesProcessed.name))).toEqual(
      expect.arrayContaining([
        [{ [ATTRIBUTES.actorKind]: "counter", [ATTRIBUTES.stepOutcome]: "committed" }, 5],
        [{ [ATTRIBUTES.actorKind]: "counter", [ATTRIBUTES.stepOutcome]: "rejected" }, 1],
        [{ [ATTRIBUTES.actorKind]: "session", [ATTRIBUTES.stepOutcome]: "skipped" }, 1],
      ]),
    );
    expect(points(collected.get(METRICS.messagesProcessed.name))).toHaveLength(3);
    const steps = points(collected.get(METRICS.stepDuration.name));
    expect(collected.get(METRICS.stepDuration.name)?.descriptor.unit).toBe("s");
    expect(steps).toHaveLength(2);
    const counterSteps = steps.find(
      ([attributes]) => attributes[ATTRIBUTES.actorKind] === "counter",
    );
    expect(counterSteps?.[1]).toEqual({ count: 6, sum: expect.closeTo(0.07, 6) as number });
    // No conflict happened: no conflict series at all.
    expect(points(collected.get(METRICS.commitConflicts.name))).toEqual([]);
  });

  it("counts a commit conflict both as a processed outcome and as a conflict", async () => {
    const { metrics, collect } = setUp();
    metrics.messageProcessed("counter", "conflict", 0.003);
    metrics.messageProcessed("counter", "committed", 0.003);
    const collected = await collect();
    expect(points(collected.get(METRICS.commitConflicts.name))).toEqual([
      [{ [ATTRIBUTES.actorKind]: "counter" }, 1],
    ]);
    expect(points(collected.get(METRICS.messagesProcessed.name))).toEqual(
      expect.arrayContaining([
        [{ [ATTRIBUTES.actorKind]: "counter", [ATTRIBUTES.stepOutcome]: "conflict" }, 1],
        [{ [ATTRIBUTES.actorKind]: "counter", [ATTRIBUTES.stepOutcome]: "committed" }, 1],
      ]),
    );
  });

  it("counts leases, dead letters, activations, passivations and effects with their attributes", async () => {
    const { metrics, collect } = setUp();
    metrics.leaseAcquired();
    metrics.leaseAcquired();
    metrics.leaseAcquired();
    metrics.leaseLost("lost");
    metrics.leaseLost("expired");
    metrics.leaseLost("expired");
    metrics.deadLettered("counter", "invalid_message");
    metrics.deadLettered("counter", "invalid_message");
    metrics.deadLettered("_unknown", "invalid_address");
    metrics.activated("counter");
    metrics.activated("counter");
    metrics.passivated("counter");
    metrics.effectEnded("fetchWeather", "completed", 0.25);
    metrics.effectEnded("fetchWeather", "completed", 0.75);
    metrics.effectEnded("fetchWeather", "failed", 2);
    const collected = await collect();
    expect(points(collected.get(METRICS.leaseAcquisitions.name))).toEqual([[{}, 3]]);
    expect(points(collected.get(METRICS.leaseLosses.name))).toEqual(
      expect.arrayContaining([
        [{ [ATTRIBUTES.leaseLossReason]: "lost" }, 1],
        [{ [ATTRIBUTES.leaseLossReason]: "expired" }, 2],
      ]),
    );
    expect(points(collected.get(METRICS.deadLetters.name))).toEqual(
      expect.arrayContaining([
        [{ [ATTRIBUTES.actorKind]: "counter", [ATTRIBUTES.deadLetterCode]: "invalid_message" }, 2],
        [{ [ATTRIBUTES.actorKind]: "_unknown", [ATTRIBUTES.deadLetterCode]: "invalid_address" }, 1],
      ]),
    );
    expect(points(collected.get(METRICS.activations.name))).toEqual([
      [{ [ATTRIBUTES.actorKind]: "counter" }, 2],
    ]);
    expect(points(collected.get(METRICS.passivations.name))).toEqual([
      [{ [ATTRIBUTES.actorKind]: "counter" }, 1],
    ]);
    expect(points(collected.get(METRICS.effectDuration.name))).toEqual(
      expect.arrayContaining([
        [
          { [ATTRIBUTES.effectName]: "fetchWeather", [ATTRIBUTES.effectOutcome]: "completed" },
          { count: 2, sum: 1 },
        ],
        [
          { [ATTRIBUTES.effectName]: "fetchWeather", [ATTRIBUTES.effectOutcome]: "failed" },
          { count: 1, sum: 2 },
        ],
      ]),
    );
  });

  it("reads the gauges from its sources only when collected", async () => {
    let shards = 3;
    let lagReads = 0;
    const { collect } = setUp({
      shardsOwned: () => shards,
      inboxLag: () => {
        lagReads += 1;
        return [
          [4, 0],
          [9, 17],
        ];
      },
      timersArmed: () => Promise.resolve(12),
    });
    expect(lagReads).toBe(0);
    let collected = await collect();
    expect(lagReads).toBe(1);
    expect(points(collected.get(METRICS.shardsOwned.name))).toEqual([[{}, 3]]);
    expect(points(collected.get(METRICS.inboxLag.name))).toEqual([
      [{ [ATTRIBUTES.shard]: 4 }, 0],
      [{ [ATTRIBUTES.shard]: 9 }, 17],
    ]);
    expect(points(collected.get(METRICS.timersArmed.name))).toEqual([[{}, 12]]);
    shards = 1;
    collected = await collect();
    expect(points(collected.get(METRICS.shardsOwned.name))).toEqual([[{}, 1]]);
  });

  it("reports the event-loop delay in seconds, and nothing before it was measured", async () => {
    const measured: { delay?: { p50Ms: number; p99Ms: number; maxMs: number } } = {};
    const { collect } = setUp({
      shardsOwned: () => 0,
      inboxLag: () => [],
      timersArmed: () => Promise.resolve(0),
      eventLoopDelay: () => measured.delay,
    });
    let collected = await collect();
    expect(points(collected.get(METRICS.eventLoopDelayMax.name))).toEqual([]);
    measured.delay = { p50Ms: 0.5, p99Ms: 12, maxMs: 1500 };
    collected = await collect();
    expect(points(collected.get(METRICS.eventLoopDelayP50.name))).toEqual([[{}, 0.0005]]);
    expect(points(collected.get(METRICS.eventLoopDelayP99.name))).toEqual([[{}, 0.012]]);
    expect(points(collected.get(METRICS.eventLoopDelayMax.name))).toEqual([[{}, 1.5]]);
  });
});
