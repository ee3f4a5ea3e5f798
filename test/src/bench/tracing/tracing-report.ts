import { fixed, ms } from "../format-numbers.js";
import type { LatencySummary } from "../latency-summary.js";
import { machineFactLines, type MachineFacts } from "../machine-facts.js";
import { renderMarkdownTable } from "../markdown-table.js";
import type { TracingModeResult, TracingRunSettings } from "./measure-tracing-mode.js";

/** Everything the tracing benchmark report shows. */
export interface TracingBenchResults {
  readonly facts: MachineFacts | undefined;
  readonly loadAverageAtEnd1m: number;
  readonly settings: TracingRunSettings;
  readonly off: TracingModeResult | undefined;
  readonly on: TracingModeResult | undefined;
  /** JetStream publish → stream ack, in ms. */
  readonly publishAck: LatencySummary | undefined;
  readonly errors: readonly string[];
  readonly durationMs: number;
}

/**
 * The error of a tracing-on run that exported nothing: without spans it
 * measured tracing off twice, so its figures must not pass for a result.
 *
 * @param on - the tracing-on run.
 * @returns the error line, or undefined when spans arrived.
 */
export function zeroSpanError(on: TracingModeResult): string | undefined {
  if (on.spans > 0) return undefined;
  return (
    "tracing on: the OTLP sink received 0 spans, so this run did not measure tracing. " +
    "The `troupe host` processes got OTEL_TRACES_EXPORTER=otlp, OTEL_EXPORTER_OTLP_ENDPOINT and " +
    "OTEL_EXPORTER_OTLP_PROTOCOL=http/json; a CLI without the OpenTelemetry SDK wiring of issue #18 ignores them"
  );
}

const change = (on: number | undefined, off: number | undefined): string =>
  on === undefined || off === undefined || off === 0
    ? "—"
    : `${on >= off ? "+" : ""}${(((on - off) / off) * 100).toFixed(1)} %`;

/**
 * The Markdown report of the tracing benchmark (issue #18): turns/s and turn
 * latency p50/p99 with tracing off and on, the change, the spans exported per
 * turn, and the raw JetStream publish → ack floor of the same run.
 *
 * @param results - what was measured.
 * @returns the report.
 */
export function renderTracingReport(results: TracingBenchResults): string {
  const { off, on, settings } = results;
  const row = (
    label: string,
    value: (result: TracingModeResult) => number,
    format: (value: number) => string,
  ): string[] => {
    const offValue = off === undefined ? undefined : value(off);
    const onValue = on === undefined ? undefined : value(on);
    return [
      label,
      offValue === undefined ? "error" : format(offValue),
      onValue === undefined ? "error" : format(onValue),
      change(onValue, offValue),
    ];
  };
  const table = renderMarkdownTable(
    [
      { header: "measurement", align: "left" },
      { header: "tracing off", align: "right" },
      { header: "tracing on", align: "right" },
      { header: "change", align: "right" },
    ],
    [
      row(
        `turns/s, ${settings.concurrentSessions} sessions in flight`,
        (r) => r.turnsPerSecond,
        (v) => v.toFixed(0),
      ),
      row("turn p50 (ms), one in flight", (r) => r.latency.p50Ms, ms),
      row("turn p99 (ms), one in flight", (r) => r.latency.p99Ms, ms),
      row(
        `turn p50 (ms), ${settings.concurrentSessions} in flight`,
        (r) => r.concurrentLatency.p50Ms,
        ms,
      ),
      row(
        `turn p99 (ms), ${settings.concurrentSessions} in flight`,
        (r) => r.concurrentLatency.p99Ms,
        ms,
      ),
      row("spans exported per turn", (r) => r.spans / Math.max(1, r.turns), fixed),
    ],
  );
  const floor =
    results.publishAck === undefined
      ? "- raw floor: error"
      : `- raw floor, same run: JetStream publish → stream ack p50 ${ms(results.publishAck.p50Ms)} ms, p99 ${ms(results.publishAck.p99Ms)} ms (${results.publishAck.count} samples, one at a time)`;
  const names =
    on === undefined || on.spanNames.length === 0
      ? "- span names received: none"
      : `- span names received (tracing on): ${on.spanNames
          .slice(0, 12)
          .map(([name, total]) => `\`${name}\` ${total}`)
          .join(", ")}`;
  return [
    "## Tracing on vs off (issue #18)",
    "",
    machineFactLines(results.facts, results.loadAverageAtEnd1m),
    `- turn: \`${settings.text}\` (one read tool call), ${settings.hosts} \`troupe host\` processes, ${settings.shardCount} shards; ${settings.warmupTurns} warm-up and ${settings.sequentialTurns} sequential turns over ${settings.sessions} sessions, then ${settings.concurrentSessions} sessions in a closed loop for ${settings.concurrentWindowMs / 1000} s (rate after the first second)`,
    "- tracing on: `OTEL_TRACES_EXPORTER=otlp`, `OTEL_EXPORTER_OTLP_PROTOCOL=http/json`, `OTEL_TRACES_SAMPLER=always_on` to an OTLP receiver in the benchmark process; off: no `OTEL_*` variable",
    "",
    table,
    "",
    floor,
    names,
    ...(results.errors.length === 0
      ? []
      : ["", "Errors:", "", ...results.errors.map((error) => `- ${error}`)]),
    "",
    `Run time ${(results.durationMs / 1000).toFixed(0)} s.`,
  ].join("\n");
}
