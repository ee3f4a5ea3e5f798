import { fixed, ms } from "../format-numbers.js";
import type { LatencySummary } from "../latency-summary.js";
import { renderMarkdownTable } from "../markdown-table.js";
import type { CpuPerTurn } from "./cpu-per-turn.js";
import { devCpuLabel, devCpuTotalMs } from "./dev-cpu.js";
import { devKindLabels, devTurnKinds, type DevTurnKind } from "./dev-turn-kinds.js";
import { judgeDevTurn, ratioOf, turnGoals } from "./turn-goals.js";
import { breakdownTables } from "./turn-report-tables.js";
import type { AgentTurnResults } from "./turn-results.js";

/** Latency and CPU of one path, or undefined when it was not measured. */
interface PathFigures {
  readonly latency: LatencySummary;
  readonly cpu: CpuPerTurn;
}

const cpuCell = (value: number | undefined) => (value === undefined ? "—" : ms(value));

/** `troupe dev`'s CPU per turn by process: `troupe dev / host / nats-server / redis-server`. */
function devCpuParts(cpu: CpuPerTurn): string {
  return [devCpuLabel, "host", "nats-server", "redis-server"]
    .map((label) => cpuCell(cpu.byLabelMs[label]))
    .join(" / ");
}

function comparisonRow(
  label: string,
  bare: PathFigures | undefined,
  dev: PathFigures | undefined,
  goal: readonly [string, string],
): string[] {
  return [
    label,
    bare === undefined ? "error" : ms(bare.latency.p50Ms),
    dev === undefined ? "error" : ms(dev.latency.p50Ms),
    fixed(ratioOf(dev?.latency.p50Ms, bare?.latency.p50Ms)),
    bare === undefined ? "error" : ms(bare.latency.p99Ms),
    dev === undefined ? "error" : ms(dev.latency.p99Ms),
    fixed(ratioOf(dev?.latency.p99Ms, bare?.latency.p99Ms)),
    cpuCell(bare?.cpu.totalMs),
    dev === undefined ? "—" : cpuCell(devCpuTotalMs(dev.cpu)),
    dev === undefined ? "—" : devCpuParts(dev.cpu),
    ...goal,
  ];
}

/**
 * Row (g) beside the bare host: per turn kind, the sequential `TurnDriver`
 * turns (rows a and b against the same turns through `troupe dev`, judged by
 * {@link judgeDevTurn}) and the new-session-per-turn `sendAndWait` turns;
 * p50, p99, their ratios and CPU per turn (the bare host's host + servers;
 * all of `troupe dev`'s processes, and by process).
 *
 * @param results - what the run measured.
 * @returns the table, or undefined when row (g) did not run.
 */
export function devComparisonTable(results: AgentTurnResults): string | undefined {
  if (!("troupeDev" in results)) return undefined;
  const dev = results.troupeDev;
  const rows = devTurnKinds.flatMap((kind) => {
    const bare = results.sequential[kind];
    const sequential = dev?.sequential[kind];
    return [
      comparisonRow(`${devKindLabels[kind]}, sequential, warm sessions`, bare, sequential, [
        turnGoals.troupeDev.text,
        sequential === undefined
          ? "error"
          : judgeDevTurn(sequential.latency.p50Ms, bare?.latency.p50Ms),
      ]),
      comparisonRow(
        `${devKindLabels[kind]}, a new session each (\`sendAndWait\`)`,
        results.newSession?.[kind],
        dev?.newSession[kind],
        ["—", "reported"],
      ),
    ];
  });
  return renderMarkdownTable(
    [
      { header: "(g) `troupe dev` vs the bare host, 1 host", align: "left" },
      { header: "bare p50 (ms)", align: "right" },
      { header: "dev p50 (ms)", align: "right" },
      { header: "dev ÷ bare p50", align: "right" },
      { header: "bare p99 (ms)", align: "right" },
      { header: "dev p99 (ms)", align: "right" },
      { header: "dev ÷ bare p99", align: "right" },
      { header: "bare CPU per turn (ms)", align: "right" },
      { header: "dev CPU per turn (ms)", align: "right" },
      { header: "dev CPU: troupe dev / host / nats / redis (ms)", align: "right" },
      { header: "goal", align: "left" },
      { header: "met", align: "left" },
    ],
    rows,
  );
}

/**
 * The per-hop tables of row (g)'s sequential turns (as those of rows a and b).
 *
 * @param results - what the run measured.
 * @returns one table per kind measured through `troupe dev`.
 */
export function devBreakdownTables(results: AgentTurnResults): string[] {
  const dev = results.troupeDev;
  if (dev === undefined) return [];
  const through = (kind: DevTurnKind) => `${devKindLabels[kind]} through \`troupe dev\``;
  return breakdownTables(
    { plain: dev.sequential.plain, read: dev.sequential.read, write: undefined },
    { plain: through("plain"), read: through("read"), write: "" },
  );
}
