import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseReadyLine } from "@troupe/host";
import type { BenchResources } from "../bench-resources.js";
import { summarizeLatencies, type LatencySummary } from "../latency-summary.js";
import { closedLoopRate } from "../turns/closed-loop-rate.js";
import { TurnDriver } from "../turns/turn-driver.js";
import { startCluster, type Cluster } from "../../support/cluster.js";
import { testRunMarker } from "../../harness/test-run-marker.js";
import { startTroupeServerProcess } from "../../support/troupe-server-process.js";
import type { OtlpSink } from "./otlp-sink.js";
import { tracingEnvironment, type TracingMode } from "./tracing-environment.js";

/** The agent module the benchmark's `troupe host` processes serve. */
const agentModule = "./test/src/fixtures/bench-agent.ts";

/** Sizes of one mode's run; see {@link measureTracingMode}. */
export interface TracingRunSettings {
  readonly text: string;
  readonly hosts: number;
  readonly shardCount: number;
  readonly sessions: number;
  readonly warmupTurns: number;
  readonly sequentialTurns: number;
  readonly concurrentSessions: number;
  readonly concurrentWindowMs: number;
  readonly turnTimeoutMs: number;
}

/** What one mode measured. */
export interface TracingModeResult {
  readonly mode: TracingMode;
  /** Sequential turns (one in flight), in ms. */
  readonly latency: LatencySummary;
  /** Turns per second with `concurrentSessions` sessions in a closed loop. */
  readonly turnsPerSecond: number;
  /** Turn latency during the concurrent window, in ms. */
  readonly concurrentLatency: LatencySummary;
  /** Spans the sink received from this mode's hosts (after the last export). */
  readonly spans: number;
  /** Span names received, most frequent first. */
  readonly spanNames: readonly (readonly [string, number])[];
  /** Turns measured (sequential + concurrent), to give spans per turn. */
  readonly turns: number;
}

/**
 * One mode of the tracing benchmark (issue #18) on fresh servers: `hosts`
 * `troupe host` child processes (the real CLI, which starts the OpenTelemetry
 * SDK from the `OTEL_*` environment) serving the bench agent, tracing off or
 * exporting to `sink`; then `warmupTurns`, `sequentialTurns` one at a time
 * round robin over `sessions`, and a closed loop of `concurrentSessions` for
 * `concurrentWindowMs`. A turn is the bench agent's one-tool-call message until
 * its `run.completed` (`TurnDriver`). With tracing on, waits for the spans to
 * stop arriving (the SDK's batch exporter sends every 5 s) before stopping.
 *
 * @param mode - off or on.
 * @param settings - sizes.
 * @param sink - the OTLP receiver (counted before and after, so spans are this mode's).
 * @param resources - tracks what is started.
 * @param progress - progress lines.
 * @param onCluster - called with the fresh cluster before the hosts start (the raw floor uses it).
 * @returns the measurements.
 */
export async function measureTracingMode(
  mode: TracingMode,
  settings: TracingRunSettings,
  sink: OtlpSink,
  resources: BenchResources,
  progress: (message: string) => void,
  onCluster?: (cluster: Cluster) => Promise<void>,
): Promise<TracingModeResult> {
  const cluster = resources.track(await startCluster({ shardCount: settings.shardCount }), (c) =>
    c.stop(),
  );
  const home = await mkdtemp(join(tmpdir(), `${testRunMarker()}tracing-bench-`));
  try {
    await onCluster?.(cluster);
    const spansBefore = sink.spanCount();
    const namesBefore = new Map(sink.spansByName());
    const { natsUrl, redisUrl } = cluster.servers;
    const hosts = await Promise.all(
      Array.from({ length: settings.hosts }, (_, index) =>
        startTroupeServerProcess(
          home,
          [
            "host",
            ...["--nats", natsUrl, "--redis", redisUrl, "--agent", agentModule],
            ...["--shards", String(settings.shardCount), "--host-id", `tracing-${mode}-${index}`],
            "--json",
          ],
          {
            name: `troupe host (tracing ${mode})`,
            ready: (stdout) =>
              stdout.split("\n").some((line) => parseReadyLine(line) !== undefined),
            readyTimeoutMs: 60_000,
            env: {
              ...tracingEnvironment(mode, sink.endpoint, "troupe-host"),
              TROUPE_LOG_LEVEL: "warn",
            },
          },
        ).then((host) => resources.track(host, async (h) => void (await h.stop()))),
      ),
    );
    await cluster.waitForBalance(
      hosts.map((_, index) => `tracing-${mode}-${index}`),
      30_000,
    );
    progress(`  ${settings.hosts} hosts own the shards (tracing ${mode})`);
    const driver = resources.track(
      await TurnDriver.start(cluster.nats, natsUrl, settings.turnTimeoutMs),
      (d) => d.close(),
    );
    const session = (index: number) => `tracing-${mode}-${index % settings.sessions}`;
    for (let index = 0; index < settings.warmupTurns; index += 1) {
      await driver.turn(session(index), settings.text);
    }
    const sequential: number[] = [];
    for (let index = 0; index < settings.sequentialTurns; index += 1) {
      sequential.push((await driver.turn(session(index), settings.text)).durationMs);
    }
    const latency = summarizeLatencies(sequential);
    progress(
      `  sequential: p50 ${latency.p50Ms.toFixed(1)} ms, p99 ${latency.p99Ms.toFixed(1)} ms`,
    );

    const completions = new Map<string, number[]>();
    const concurrent: number[] = [];
    const startedAtMs = performance.timeOrigin + performance.now();
    const endAtMs = startedAtMs + settings.concurrentWindowMs;
    await Promise.all(
      Array.from({ length: settings.concurrentSessions }, async (_, index) => {
        const id = `tracing-${mode}-loop-${index}`;
        const times: number[] = [];
        completions.set(id, times);
        while (performance.timeOrigin + performance.now() < endAtMs) {
          const timing = await driver.turn(id, settings.text);
          times.push(timing.completedAtMs);
          concurrent.push(timing.durationMs);
        }
      }),
    );
    // The first second is the ramp (sessions' first turns activate actors).
    const { turnsPerSecond } = closedLoopRate(completions, startedAtMs + 1_000, endAtMs);
    progress(
      `  concurrent (${settings.concurrentSessions} sessions): ${turnsPerSecond.toFixed(0)} turns/s`,
    );
    await resources.release(driver);

    let spans = sink.spanCount() - spansBefore;
    if (mode === "on") {
      // Wait until no span arrived for 6 s (the batch exporter's 5 s schedule), at most 20 s.
      const deadline = performance.now() + 20_000;
      let quietSince = performance.now();
      while (performance.now() < deadline && performance.now() - quietSince < 6_000) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        const now = sink.spanCount() - spansBefore;
        if (now !== spans) quietSince = performance.now();
        spans = now;
      }
    }
    for (const host of hosts) await resources.release(host);
    spans = sink.spanCount() - spansBefore;
    const spanNames = [...sink.spansByName()]
      .map(([name, total]) => [name, total - (namesBefore.get(name) ?? 0)] as const)
      .filter(([, total]) => total > 0)
      .sort((a, b) => b[1] - a[1]);
    return {
      mode,
      latency,
      turnsPerSecond,
      concurrentLatency: summarizeLatencies(concurrent),
      spans,
      spanNames,
      turns: settings.warmupTurns + settings.sequentialTurns + concurrent.length,
    };
  } finally {
    await resources.release(cluster);
    await rm(home, { recursive: true, force: true });
  }
}
