import { count, fixed, ms } from "../format-numbers.js";
import { renderMarkdownTable } from "../markdown-table.js";
import { machineFactLines } from "../machine-facts.js";
import { restateComparisonTable } from "../restate/restate-report.js";
import type { LatencySummary } from "../latency-summary.js";
import type { CpuPerTurn } from "./cpu-per-turn.js";
import type { RawFloor } from "./measure-raw-floor.js";
import { devCpuTotalMs } from "./dev-cpu.js";
import { devKindLabels, devTurnKinds } from "./dev-turn-kinds.js";
import { judgeAtMost, judgeDevTurn, judgeLatency, ratioOf, turnGoals } from "./turn-goals.js";
import { devBreakdownTables, devComparisonTable } from "./turn-report-dev.js";
import {
  breakdownTables,
  cpuTable,
  longSessionTable,
  manySessionsTable,
  streamTable,
} from "./turn-report-tables.js";
import { turnReportNotes } from "./turn-report-notes.js";
import type { AgentTurnResults, TurnKind } from "./turn-results.js";

/** Hosts serving the turns in every row. */
export const benchHosts = 1;

const kindLabels: Readonly<Record<TurnKind, string>> = {
  plain: "plain turn",
  read: "one read tool turn",
  write: "one write tool turn (auto-allow)",
};

/**
 * Renders the agent-turn results as a Markdown section: machine facts, the main
 * table (every row beside its raw floor and the goal of issue #12), then the
 * message 1 vs 500, 10,000-sessions, stream, per-hop and CPU tables and the notes.
 *
 * @param results - what the run measured.
 * @returns the section, ending with a newline.
 */
export function renderTurnReport(results: AgentTurnResults): string {
  const { facts } = results;
  const tables = [
    mainTable(results),
    devComparisonTable(results),
    restateComparisonTable(results),
    longSessionTable(results.longSession),
    manySessionsTable(results.manySessions),
    streamTable(results.manySessions),
    ...breakdownTables(results.sequential, kindLabels),
    ...devBreakdownTables(results),
    cpuTable(results, kindLabels),
  ].filter((table): table is string => table !== undefined);
  return [
    "## Agent-turn benchmark (issue #12)",
    "",
    "Written by `npm run bench:turns` (`test/src/bench/agent-turn-bench.ts`).",
    "",
    machineFactLines(facts, results.loadAverageAtEnd1m),
    "",
    ...tables.flatMap((table) => [table, ""]),
    ...turnReportNotes(results).map((note) => `- ${note}`),
    "",
  ].join("\n");
}

/** The main table: one row per measurement, the raw floor of its hops beside it. */
export function mainTable(results: AgentTurnResults): string {
  const { rawFloor } = results;
  const rows: string[][] = [];
  for (const kind of ["plain", "read", "write"] as const) {
    const result = results.sequential[kind];
    const label = `(${kind === "plain" ? "a" : kind === "read" ? "b" : "c"}) ${kindLabels[kind]}, sequential (ms)`;
    if (result === undefined) {
      rows.push(errorRow(label));
      continue;
    }
    const goal = kind === "plain" ? turnGoals.plain : turnGoals.oneTool;
    rows.push(
      latencyRow(label, result.latency, result.inboxMessagesPerTurn, rawFloor, result.cpu, [
        goal.text,
        judgeLatency(result.latency, goal),
      ]),
    );
  }
  rows.push(...longSessionRows(results));
  for (const run of results.concurrent) {
    const label = `(e) ${kindLabels[run.kind]}s, ${run.inFlight} in flight (turns/s)`;
    const goal =
      run.kind === "plain" && run.inFlight === turnGoals.concurrentPlain.inFlight
        ? turnGoals.concurrentPlain.text
        : run.kind !== "plain" && run.inFlight === turnGoals.concurrentPlain.inFlight
          ? turnGoals.concurrentOneTool.text
          : "—";
    if (run.result === undefined) {
      rows.push(errorRow(label));
      continue;
    }
    const met =
      goal === turnGoals.concurrentPlain.text
        ? run.result.turnsPerSecond >= turnGoals.concurrentPlain.turnsPerSecond
          ? "yes"
          : `no: < ${count(turnGoals.concurrentPlain.turnsPerSecond)}/s`
        : goal === "—"
          ? "—"
          : "reported";
    // Hops are structural: a warm turn of a kind journals the same messages alone or concurrently.
    const hops =
      results.sequential[run.kind]?.inboxMessagesPerTurn ?? run.result.inboxMessagesPerTurn;
    rows.push(
      rateRow(label, run.result.turnsPerSecond, hops, rawFloor, run.result.cpu, [goal, met]),
    );
  }
  const many = results.manySessions;
  const manyLabel = `(f) ${count(many?.sessions ?? 0)} new sessions, one plain turn each, ${many?.inFlight ?? 0} in flight (turns/s)`;
  if (many === undefined) rows.push(errorRow("(f) new sessions, one plain turn each (turns/s)"));
  else {
    const inbox = many.passivated.streams.inbox.lastSeq - many.before.streams.inbox.lastSeq;
    rows.push(
      rateRow(manyLabel, many.turnsPerSecond, inbox / many.sessions, rawFloor, many.cpu, [
        "memory and storage: the table below",
        "—",
      ]),
    );
  }
  rows.push(...devRows(results));
  return renderMarkdownTable(
    [
      { header: "measurement (1 host)", align: "left" },
      { header: "host p50", align: "right" },
      { header: "host p99", align: "right" },
      { header: "hops per turn", align: "right" },
      { header: "raw floor p50", align: "right" },
      { header: "raw floor p99", align: "right" },
      { header: "host ÷ raw", align: "right" },
      { header: "CPU per turn (ms)", align: "right" },
      { header: "goal (issue #12)", align: "left" },
      { header: "met", align: "left" },
    ],
    rows,
  );
}

function errorRow(label: string): string[] {
  return [label, "error", "", "", "", "", "", "", "", ""];
}

function cpuCell(cpu: CpuPerTurn): string {
  return cpu.totalMs === undefined ? "—" : ms(cpu.totalMs);
}

function latencyRow(
  label: string,
  latency: LatencySummary,
  hops: number,
  rawFloor: RawFloor | undefined,
  cpu: CpuPerTurn,
  goal: readonly [string, string],
): string[] {
  const floorP50 = rawFloor === undefined ? undefined : hops * rawFloor.latency.p50Ms;
  const floorP99 = rawFloor === undefined ? undefined : hops * rawFloor.latency.p99Ms;
  return [
    label,
    ms(latency.p50Ms),
    ms(latency.p99Ms),
    hops.toFixed(2),
    floorP50 === undefined ? "error" : ms(floorP50),
    floorP99 === undefined ? "error" : ms(floorP99),
    fixed(ratioOf(latency.p50Ms, floorP50)),
    cpuCell(cpu),
    ...goal,
  ];
}

function rateRow(
  label: string,
  turnsPerSecond: number,
  hops: number,
  rawFloor: RawFloor | undefined,
  cpu: CpuPerTurn,
  goal: readonly [string, string],
): string[] {
  const floor = rawFloor === undefined ? undefined : rawFloor.messagesPerSecond / hops;
  return [
    label,
    count(turnsPerSecond),
    "—",
    hops.toFixed(2),
    floor === undefined ? "error" : count(floor),
    "—",
    fixed(ratioOf(turnsPerSecond, floor)),
    cpuCell(cpu),
    ...goal,
  ];
}

/** Row (g): sequential turns through `troupe dev`, judged against (a) and (b); none when it did not run. */
function devRows(results: AgentTurnResults): string[][] {
  if (!("troupeDev" in results)) return [];
  const dev = results.troupeDev;
  return devTurnKinds.map((kind) => {
    const label = `(g) ${devKindLabels[kind]} through \`troupe dev\`, sequential (ms)`;
    const result = dev?.sequential[kind];
    if (result === undefined) return errorRow(label);
    // All of troupe dev's processes count: its own (gateway, log formatter) too.
    const cpu = { ...result.cpu, totalMs: devCpuTotalMs(result.cpu) };
    return latencyRow(label, result.latency, result.inboxMessagesPerTurn, results.rawFloor, cpu, [
      turnGoals.troupeDev.text,
      judgeDevTurn(result.latency.p50Ms, results.sequential[kind]?.latency.p50Ms),
    ]);
  });
}

function longSessionRows(results: AgentTurnResults): string[][] {
  const long = results.longSession;
  if (long === undefined) return [errorRow("(d) message 1 vs message 500 of one session (ms)")];
  const window = (which: "first" | "last") => {
    const part = long[which];
    return latencyRow(
      `(d) messages ${part.from}–${part.to} of one session (ms)`,
      part.latency,
      part.inboxMessagesPerTurn,
      results.rawFloor,
      part.cpu,
      ["—", "—"],
    );
  };
  const p50 = ratioOf(long.last.latency.p50Ms, long.first.latency.p50Ms);
  const p99 = ratioOf(long.last.latency.p99Ms, long.first.latency.p99Ms);
  const hostCpu = ratioOf(long.last.cpu.byLabelMs.host, long.first.cpu.byLabelMs.host);
  return [
    window("first"),
    window("last"),
    [
      `(d) messages ${long.last.from}–${long.last.to} ÷ ${long.first.from}–${long.first.to} (×)`,
      fixed(p50),
      fixed(p99),
      "—",
      "—",
      "—",
      "—",
      `host ${fixed(hostCpu)}`,
      turnGoals.longSession.text,
      judgeAtMost({ "p50 time": p50, "host CPU": hostCpu }, turnGoals.longSession.maxRatio, "×"),
    ],
  ];
}
