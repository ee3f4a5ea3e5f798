import type { BenchResults, ThroughputResult } from "./bench-results.js";
import type { ActivationResult } from "./measure-activation.js";
import type { DrainRate } from "./measure-drain-rate.js";
import { count, fixed, median, micros, ms, rate } from "./format-numbers.js";
import { renderMarkdownTable } from "./markdown-table.js";
import { machineFactLines } from "./machine-facts.js";
import { reportNotes } from "./report-notes.js";

/** Goals of the actor host on the 2-core benchmark machine. */
export const benchGoals = {
  messagesPerSecond: 8000,
  hostToRawThroughput: 0.5,
  publishToEventP50Ms: 1.5,
  activationMs: 1,
  failoverMs: 3000,
} as const;

/**
 * Renders the results as a Markdown document: machine facts, the table of host
 * medians and p99 next to the raw floor, and notes on method and spread.
 *
 * @param results - what the run measured.
 * @returns the document, ending with a newline.
 */
export function renderBenchReport(results: BenchResults): string {
  const { facts } = results;
  const cpuTableText = cpuTable(results.throughput[0]);
  const lines = [
    "## Actor host benchmark",
    "",
    "Written by `npm run bench:host` (`test/src/bench/actor-host-bench.ts`).",
    "",
    machineFactLines(facts, results.loadAverageAtEnd1m),
    "",
    renderMarkdownTable(
      [
        { header: "measurement", align: "left" },
        { header: "host p50", align: "right" },
        { header: "host p99", align: "right" },
        { header: "raw floor p50", align: "right" },
        { header: "raw floor p99", align: "right" },
        { header: "host ÷ raw", align: "right" },
        { header: "goal", align: "left" },
        { header: "met", align: "left" },
      ],
      [
        ...results.throughput.map((result, index) => throughputRow(result, index === 0)),
        latencyRow(results.latency),
        activationRow(results.activation),
        failoverRow(results.failoverMs, results.leaseTtlMs),
      ],
    ),
    "",
    ...(cpuTableText === undefined ? [] : [cpuTableText, ""]),
    ...reportNotes(results).map((note) => `- ${note}`),
    "",
  ];
  return lines.join("\n");
}

function throughputRow(result: ThroughputResult, judged: boolean): string[] {
  const runs = result.hostRuns.length === 1 ? "1 run" : `median of ${result.hostRuns.length}`;
  const label = `throughput, maxConcurrency ${result.maxConcurrency} (msgs/s, ${runs})`;
  const host = median(result.hostRuns.map((run) => run.messagesPerSecond));
  const raw = median(result.rawRuns.map((run) => run.messagesPerSecond));
  const ratio = host !== undefined && raw !== undefined && raw > 0 ? host / raw : undefined;
  const goal = `≥ ${count(benchGoals.messagesPerSecond)} msgs/s and ≥ ${benchGoals.hostToRawThroughput} × raw`;
  let met = "—";
  if (judged && host !== undefined && ratio !== undefined) {
    const misses = [
      ...(host < benchGoals.messagesPerSecond
        ? [`rate < ${count(benchGoals.messagesPerSecond)}`]
        : []),
      ...(ratio < benchGoals.hostToRawThroughput
        ? [`ratio < ${benchGoals.hostToRawThroughput}`]
        : []),
    ];
    met = misses.length === 0 ? "yes" : `no: ${misses.join(", ")}`;
  }
  return [label, rate(host), "—", rate(raw), "—", fixed(ratio), judged ? goal : "—", met];
}

/**
 * CPU time per message by process at the first (judged) concurrency: the median
 * over runs of each process's CPU time inside the 10–90 % window.
 */
function cpuTable(result: ThroughputResult | undefined): string | undefined {
  if (result === undefined) return undefined;
  const perProcess = (runs: readonly DrainRate[], label: string) =>
    median(
      runs.flatMap((run) =>
        run.cpuPerMessageUs?.[label] === undefined ? [] : [run.cpuPerMessageUs[label]],
      ),
    );
  const labels = ["node", "nats-server", "redis-server"];
  const rows = labels.map((label) => {
    const host = perProcess(result.hostRuns, label);
    const raw = perProcess(result.rawRuns, label);
    const name = label === "node" ? "node (host or raw floor + poller)" : label;
    return [
      name,
      micros(host),
      micros(raw),
      fixed(host !== undefined && raw ? host / raw : undefined),
    ];
  });
  const total = (runs: readonly DrainRate[]) =>
    labels.reduce<number | undefined>((sum, label) => {
      const value = perProcess(runs, label);
      return sum === undefined || value === undefined ? undefined : sum + value;
    }, 0);
  const hostTotal = total(result.hostRuns);
  const rawTotal = total(result.rawRuns);
  rows.push([
    "total",
    micros(hostTotal),
    micros(rawTotal),
    fixed(hostTotal !== undefined && rawTotal ? hostTotal / rawTotal : undefined),
  ]);
  return renderMarkdownTable(
    [
      { header: `CPU per message, maxConcurrency ${result.maxConcurrency} (µs)`, align: "left" },
      { header: "host run", align: "right" },
      { header: "raw floor run", align: "right" },
      { header: "host ÷ raw", align: "right" },
    ],
    rows,
  );
}

function latencyRow(latency: BenchResults["latency"]): string[] {
  const label = "publish → event latency (ms)";
  if (latency === undefined) return [label, "error", "", "", "", "", ""];
  const { host, raw } = latency;
  const met = host.p50Ms <= benchGoals.publishToEventP50Ms ? "yes" : "no";
  return [
    label,
    ms(host.p50Ms),
    ms(host.p99Ms),
    ms(raw.p50Ms),
    ms(raw.p99Ms),
    fixed(host.p50Ms / raw.p50Ms),
    `p50 ≤ ${benchGoals.publishToEventP50Ms} ms`,
    met,
  ];
}

function activationRow(activation: ActivationResult | undefined): string[] {
  const label = "activation from a stored snapshot (ms)";
  if (activation === undefined) return [label, "error", "", "", "", "", ""];
  const { host, raw } = activation;
  const yes = (value: number) => (value <= benchGoals.activationMs ? "yes" : "no");
  return [
    label,
    ms(host.p50Ms),
    ms(host.p99Ms),
    ms(raw.p50Ms),
    ms(raw.p99Ms),
    fixed(host.p50Ms / raw.p50Ms),
    `≤ ${benchGoals.activationMs} ms`,
    `p50 ${yes(host.p50Ms)}, p99 ${yes(host.p99Ms)}`,
  ];
}

function failoverRow(failoverMs: readonly number[] | undefined, leaseTtlMs: number): string[] {
  const label = `failover after SIGKILL (ms, median of ${failoverMs?.length ?? 0})`;
  const middle = median(failoverMs ?? []);
  if (failoverMs === undefined || middle === undefined) return [label, "error", "", "", "", "", ""];
  return [
    label,
    count(middle),
    `max ${count(Math.max(...failoverMs))}`,
    `${count(leaseTtlMs)} (lease TTL)`,
    "—",
    fixed(middle / leaseTtlMs),
    `≤ ${count(benchGoals.failoverMs)} ms`,
    middle <= benchGoals.failoverMs ? "yes" : "no",
  ];
}
