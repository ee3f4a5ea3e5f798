/**
 * Tracing benchmark (issue #18): what OpenTelemetry tracing costs a turn. Two
 * runs on fresh local servers, each with two `troupe host` child processes
 * (the real CLI, serving the bench agent): tracing off (no `OTEL_*` variable)
 * and tracing on (every span exported as OTLP/HTTP JSON to a receiver in this
 * process, sampler `always_on`). Each run measures sequential turns with one
 * read tool call (p50/p99) and a closed loop of concurrent sessions (turns/s);
 * the raw floor is the JetStream publish → ack round trip on the same servers.
 * A tracing-on run that received no span fails the benchmark (it would have
 * measured nothing). Prints the Markdown report and writes it to its section of
 * `latest-results.md`.
 *
 * Run with `npm run bench:tracing` (from the repository root): about 1.5
 * minutes on an idle machine, at most {@link timeLimitMs}. `--quick` runs
 * smaller and does not write `latest-results.md`.
 */
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { startBenchLifecycle } from "./bench-lifecycle.js";
import type { LatencySummary } from "./latency-summary.js";
import { collectMachineFacts, type MachineFacts } from "./machine-facts.js";
import { writeResultSection } from "./results-file.js";
import {
  measureTracingMode,
  type TracingModeResult,
  type TracingRunSettings,
} from "./tracing/measure-tracing-mode.js";
import { measurePublishAck } from "./tracing/measure-publish-ack.js";
import { startOtlpSink } from "./tracing/otlp-sink.js";
import { withoutOpenTelemetryVariables } from "./tracing/tracing-environment.js";
import { renderTracingReport, zeroSpanError } from "./tracing/tracing-report.js";

const quick = process.argv.includes("--quick");
/** The whole run must end within this, in ms; then everything is torn down and the exit code is 1. */
const timeLimitMs = 240_000;
const settings: TracingRunSettings = {
  text: '/tool lookup {"key":"k"}',
  hosts: 2,
  shardCount: 16,
  sessions: 10,
  warmupTurns: quick ? 10 : 30,
  sequentialTurns: quick ? 40 : 150,
  concurrentSessions: 24,
  concurrentWindowMs: quick ? 4_000 : 8_000,
  turnTimeoutMs: 30_000,
};
const resultsFile = fileURLToPath(new URL("./latest-results.md", import.meta.url));

const { resources, startedAtMs, progress, attempt, errors, sweepLeftovers, runToEnd } =
  startBenchLifecycle("bench:tracing", timeLimitMs);

async function run(): Promise<number> {
  const inherited = withoutOpenTelemetryVariables(process.env);
  if (inherited.length > 0) progress(`ignoring ${inherited.join(", ")} of this shell`);
  const sink = resources.track(await startOtlpSink(), (s) => s.close());
  progress(`OTLP receiver on ${sink.endpoint}`);
  let facts: MachineFacts | undefined;
  let publishAck: LatencySummary | undefined;
  const results: Partial<Record<"off" | "on", TracingModeResult>> = {};
  for (const mode of ["off", "on"] as const) {
    progress(`tracing ${mode}`);
    results[mode] = await attempt(`tracing ${mode}`, () =>
      measureTracingMode(mode, settings, sink, resources, progress, async (cluster) => {
        if (mode !== "off") return;
        facts = await collectMachineFacts(cluster.nats, cluster.redis);
        publishAck = await attempt("raw floor", () => measurePublishAck(cluster.nats, 500));
        if (publishAck !== undefined)
          progress(`  raw floor: publish → ack p50 ${publishAck.p50Ms.toFixed(2)} ms`);
      }),
    );
  }
  if (results.on !== undefined) {
    progress(`tracing on: ${results.on.spans} spans received`);
    const error = zeroSpanError(results.on);
    if (error !== undefined) errors.push(error);
  }
  if (sink.unreadableRequests() > 0)
    errors.push(`${sink.unreadableRequests()} trace exports were not OTLP JSON`);

  await resources.releaseAll();
  const leftover = await sweepLeftovers();
  if (leftover !== undefined) errors.push(leftover);
  const report = renderTracingReport({
    facts,
    loadAverageAtEnd1m: loadavg()[0] ?? 0,
    settings,
    off: results.off,
    on: results.on,
    publishAck,
    errors,
    durationMs: performance.now() - startedAtMs,
  });
  process.stdout.write(`\n${report}\n`);
  if (quick) progress("--quick: latest-results.md left as it was");
  else {
    await writeResultSection(resultsFile, "tracing", report);
    progress(`wrote ${resultsFile}`);
  }
  if (errors.length > 0) process.stderr.write(`bench:tracing FAILED:\n- ${errors.join("\n- ")}\n`);
  return errors.length === 0 ? 0 : 1;
}

await runToEnd(run);
