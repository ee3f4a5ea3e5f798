/**
 * Benchmark of the actor host against the raw infrastructure floor, on local
 * NATS JetStream and Redis servers: throughput across 1 000 actors, publish →
 * event latency, activation from a stored snapshot and failover after SIGKILL.
 * Prints a Markdown table and writes it to its section of `latest-results.md`
 * beside this file.
 *
 * Run with `npm run bench` (from the repository root). It stops by itself within
 * {@link timeLimitMs}, tearing down every server and host it started, also on an
 * error, Ctrl-C or the time limit. `--single-run=host` (or `raw`) only measures
 * one throughput run, for `node --cpu-prof`; see `README.md`.
 */
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { RedisKeys } from "@troupe/protocol/internal";
import { hostSettingsSchema } from "@troupe/runtime";
import { startBenchLifecycle } from "./bench-lifecycle.js";
import { renderBenchReport } from "./bench-report.js";
import type { BenchResults, ThroughputResult } from "./bench-results.js";
import { counterRecordSizes } from "./counter-record-sizes.js";
import { collectMachineFacts, type MachineFacts } from "./machine-facts.js";
import { measureActivation, type ActivationResult } from "./measure-activation.js";
import type { DrainRate } from "./measure-drain-rate.js";
import { measureFailover } from "./measure-failover.js";
import { measurePublishToEvent } from "./measure-publish-to-event.js";
import { measureThroughput, type ThroughputTarget } from "./measure-throughput.js";
import type { LatencySummary } from "./latency-summary.js";
import { writeResultSection } from "./results-file.js";

/** The whole run must end within this, in ms; then everything is torn down and the exit code is 1. */
const timeLimitMs = 300_000;
const shardCount = 64;
const actors = 1000;
const messages = 20_000;
/** The host's default `maxConcurrency` first (repeated, judged against the goals), then others. */
const concurrencies = [256, 64, 1024] as const;
const defaultConcurrencyRuns = 3;
const drainTimeoutMs = 25_000;
const latency = { actor: "counter/latency", samples: 500, warmup: 100, eventTimeoutMs: 5_000 };
const failover = {
  rounds: 3,
  probeIntervalMs: 20,
  recoveryTimeoutMs: 15_000,
  startupTimeoutMs: 30_000,
};
const resultsFile = fileURLToPath(new URL("./latest-results.md", import.meta.url));

const { resources, startedAtMs, progress, attempt, errors, sweepLeftovers, runToEnd } =
  startBenchLifecycle("bench", timeLimitMs);

async function run(): Promise<number> {
  const sizes = counterRecordSizes();
  const throughputRun = <T>(
    target: ThroughputTarget,
    maxConcurrency: number,
    afterDrain?: Parameters<typeof measureThroughput<T>>[1],
  ) =>
    attempt(`${target} throughput at maxConcurrency ${maxConcurrency}`, async () => {
      const result = await measureThroughput(
        {
          target,
          maxConcurrency,
          actors,
          messages,
          shardCount,
          timeoutMs: drainTimeoutMs,
          sizes,
          resources,
        },
        afterDrain,
      );
      if (!result.rate.completed)
        throw new Error(`backlog not drained within ${drainTimeoutMs} ms`);
      const cpu = Object.entries(result.rate.cpuPerMessageUs ?? {})
        .map(([label, us]) => `${label} ${Math.round(us)} µs`)
        .join(", ");
      progress(
        `${target} at maxConcurrency ${maxConcurrency}: ${Math.round(result.rate.messagesPerSecond)} msgs/s (CPU per message: ${cpu})`,
      );
      return result;
    });

  const single = /^--single-run=(host|raw)$/.exec(
    process.argv.find((arg) => arg.startsWith("--single-run=")) ?? "",
  );
  if (single !== null) {
    await throughputRun(single[1] as ThroughputTarget, concurrencies[0]);
    return errors.length === 0 ? 0 : 1;
  }

  let facts: MachineFacts | undefined;
  let hostLatency: LatencySummary | undefined;
  let rawLatency: LatencySummary | undefined;
  let activation: ActivationResult | undefined;
  const throughput: ThroughputResult[] = [];
  for (const maxConcurrency of concurrencies) {
    const hostRuns: DrainRate[] = [];
    const rawRuns: DrainRate[] = [];
    const runs = maxConcurrency === concurrencies[0] ? defaultConcurrencyRuns : 1;
    for (let index = 0; index < runs; index += 1) {
      const first = throughput.length === 0 && index === 0;
      // Raw and host alternate, so drift on a shared machine hits both alike.
      const raw = await throughputRun("raw", maxConcurrency, async ({ cluster }) => {
        if (!first) return;
        progress("raw floor publish → event latency");
        rawLatency = await measurePublishToEvent(cluster.nats, cluster.js, latency);
      });
      if (raw !== undefined) rawRuns.push(raw.rate);
      const host = await throughputRun(
        "host",
        maxConcurrency,
        async ({ cluster, actors: written, stopTarget }) => {
          if (!first) return;
          facts = await collectMachineFacts(cluster.nats, cluster.redis);
          progress("host publish → event latency");
          hostLatency = await measurePublishToEvent(cluster.nats, cluster.js, latency);
          await stopTarget();
          progress("activation from stored snapshots");
          activation = await measureActivation(
            cluster.redis,
            new RedisKeys("troupe", shardCount),
            cluster.snapshots,
            written,
          );
        },
      );
      if (host !== undefined) hostRuns.push(host.rate);
    }
    throughput.push({ maxConcurrency, hostRuns, rawRuns });
  }
  progress("failover after SIGKILL");
  const failoverMs = await attempt("failover", () =>
    measureFailover({ ...failover, shardCount, resources }),
  );
  if (hostLatency === undefined || rawLatency === undefined)
    errors.push("latency: not measured (see above)");

  await resources.releaseAll();
  const leftover = await sweepLeftovers();
  if (leftover !== undefined) errors.push(leftover);
  const results: BenchResults = {
    facts,
    loadAverageAtEnd1m: loadavg()[0] ?? 0,
    actors,
    messages,
    shardCount,
    sizes,
    throughput,
    latency: hostLatency && rawLatency ? { host: hostLatency, raw: rawLatency } : undefined,
    activation,
    failoverMs,
    leaseTtlMs: hostSettingsSchema.parse({}).leaseTtlMs,
    errors,
    durationMs: performance.now() - startedAtMs,
  };
  const report = renderBenchReport(results);
  process.stdout.write(`\n${report}`);
  await writeResultSection(resultsFile, "actor-host", report);
  progress(`wrote ${resultsFile}`);
  return errors.length === 0 ? 0 : 1;
}

await runToEnd(run);
