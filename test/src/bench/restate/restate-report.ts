import { count, fixed, ms } from "../format-numbers.js";
import type { LatencySummary } from "../latency-summary.js";
import { renderMarkdownTable } from "../markdown-table.js";
import type { CpuPerTurn } from "../turns/cpu-per-turn.js";
import { ratioOf } from "../turns/turn-goals.js";
import type { AgentTurnResults, TurnKind } from "../turns/turn-results.js";
import {
  judgeRateAgainstRestate,
  judgeSequentialAgainstRestate,
  restateGoals,
} from "./restate-goals.js";
import type { RestateResults } from "./restate-results.js";
import type { RestateTurnKind } from "./turn-object.js";

/** Our turn kind each Restate handler stands beside: `oneTool` is our read tool turn. */
export const troupeKindOf: Readonly<Record<RestateTurnKind, TurnKind>> = {
  plain: "plain",
  oneTool: "read",
};

const labels: Readonly<Record<RestateTurnKind, string>> = {
  plain: "plain turn",
  oneTool: "one-tool turn",
};

/** What a Restate cell says when there is no Restate figure. */
function missing(restate: RestateResults): string {
  return restate.status === "skipped" ? "skipped" : "error";
}

function cpuCell(cpu: CpuPerTurn | undefined, fallback: string): string {
  return cpu?.totalMs === undefined ? fallback : ms(cpu.totalMs);
}

function latencyPair(latency: LatencySummary | undefined, fallback: string): string {
  return latency === undefined ? fallback : `${ms(latency.p50Ms)} / ${ms(latency.p99Ms)}`;
}

function ratioPair(
  troupe: LatencySummary | undefined,
  restate: LatencySummary | undefined,
): string {
  if (troupe === undefined || restate === undefined) return "—";
  return `${fixed(ratioOf(troupe.p50Ms, restate.p50Ms))} / ${fixed(ratioOf(troupe.p99Ms, restate.p99Ms))}`;
}

/**
 * The Troupe vs Restate table: for each Restate handler, our sequential p50 /
 * p99 and CPU per turn beside Restate's with Troupe ÷ Restate, then each
 * concurrent run (ours and Restate's at the same number in flight) in turns/s,
 * with the goals of the issue judged in the last two columns.
 *
 * @param results - what the run measured.
 * @returns the table, or undefined when the Restate phase did not run at all.
 */
export function restateComparisonTable(results: AgentTurnResults): string | undefined {
  const restate = results.restate;
  if (restate === undefined) return undefined;
  const measured = restate.status === "measured" ? restate : undefined;
  const none = missing(restate);
  const rows: string[][] = [];
  for (const kind of ["plain", "oneTool"] as const) {
    const ours = results.sequential[troupeKindOf[kind]];
    const theirs = measured?.sequential[kind];
    const goal = kind === "plain" ? restateGoals.plain : restateGoals.oneTool;
    rows.push([
      `${labels[kind]}, sequential: p50 / p99 (ms)`,
      latencyPair(ours?.latency, "error"),
      latencyPair(theirs?.latency, none),
      ratioPair(ours?.latency, theirs?.latency),
      cpuCell(ours?.cpu, "error"),
      cpuCell(theirs?.cpu, none),
      goal.text,
      judgeSequentialAgainstRestate(ours?.latency.p50Ms, theirs?.latency.p50Ms, goal.p50Ms),
    ]);
  }
  for (const { kind, inFlight } of concurrentKeys(results)) {
    const ours = results.concurrent.find(
      (run) => run.kind === troupeKindOf[kind] && run.inFlight === inFlight,
    )?.result;
    const theirs = measured?.concurrent.find(
      (run) => run.kind === kind && run.inFlight === inFlight,
    )?.result;
    const judged = inFlight === restateGoals.concurrent.inFlight;
    rows.push([
      `${labels[kind]}s, ${inFlight} in flight (turns/s)`,
      ours === undefined ? "error" : count(ours.turnsPerSecond),
      theirs === undefined ? none : count(theirs.turnsPerSecond),
      fixed(ratioOf(ours?.turnsPerSecond, theirs?.turnsPerSecond)),
      cpuCell(ours?.cpu, "error"),
      cpuCell(theirs?.cpu, none),
      judged ? restateGoals.concurrent.text : "—",
      judged
        ? judgeRateAgainstRestate(
            ours?.turnsPerSecond,
            theirs?.turnsPerSecond,
            restateGoals.concurrent.minRatio,
          )
        : "—",
    ]);
  }
  return renderMarkdownTable(
    [
      { header: "Troupe vs Restate (same run, one machine)", align: "left" },
      { header: "Troupe (1 host)", align: "right" },
      { header: "Restate", align: "right" },
      { header: "Troupe ÷ Restate", align: "right" },
      { header: "Troupe CPU per turn (ms)", align: "right" },
      { header: "Restate CPU per turn (ms)", align: "right" },
      { header: "goal (issue #32)", align: "left" },
      { header: "met", align: "left" },
    ],
    rows,
  );
}

/** The concurrent runs to show: ours of a kind Restate has, then any of Restate's not among them. */
function concurrentKeys(
  results: AgentTurnResults,
): { readonly kind: RestateTurnKind; readonly inFlight: number }[] {
  const keys: { kind: RestateTurnKind; inFlight: number }[] = [];
  const add = (kind: RestateTurnKind, inFlight: number) => {
    if (!keys.some((key) => key.kind === kind && key.inFlight === inFlight))
      keys.push({ kind, inFlight });
  };
  for (const run of results.concurrent) {
    const kind = (["plain", "oneTool"] as const).find((each) => troupeKindOf[each] === run.kind);
    if (kind !== undefined) add(kind, run.inFlight);
  }
  if (results.restate?.status === "measured")
    for (const run of results.restate.concurrent) add(run.kind, run.inFlight);
  return keys;
}

/**
 * The notes under the Troupe vs Restate table.
 *
 * @param results - what the run measured.
 * @returns one Markdown list item text per note; none when the phase did not run.
 */
export function restateReportNotes(results: AgentTurnResults): string[] {
  const restate = results.restate;
  if (restate === undefined) return [];
  if (restate.status === "skipped") return [`Restate: skipped — ${restate.reason}.`];
  const { settings } = results;
  const latencies = restate.concurrent
    .filter((run) => run.result !== undefined)
    .map(
      (run) =>
        `${run.kind} ${run.inFlight} in flight: ${count(run.result?.turns ?? 0)} turns in ${count(run.result?.windowMs ?? 0)} ms, p50 ${ms(run.result?.latency.p50Ms ?? 0)} / p99 ${ms(run.result?.latency.p99Ms ?? 0)} ms`,
    );
  return [
    `Restate side by side: ${restate.serverVersion} (npm \`@restatedev/restate-server\`, its Linux binary run directly) with its default durability, one node on loopback, and a \`turn\` virtual object served by \`@restatedev/restate-sdk\` ${restate.sdkVersion} (HTTP/2 endpoint in a child process; \`test/src/bench/restate/\`), keyed by session. \`plain\`: one \`ctx.run\` (the scripted model) + one \`ctx.set\` of the session state; \`oneTool\`: three \`ctx.run\` (model call 1 → a tool call, the tool, model call 2 → the answer) + one \`ctx.set\`; the steps return small JSON at once, like our scripted model and tools. A turn is \`POST /turn/<session>/<handler>\` on its HTTP ingress (HTTP/1.1, kept-alive connections, the user message as JSON, no idempotency key) until the answer is read; ours is \`TroupeClient.send\` until \`run.completed\` arrives. What each side stores durably per turn, and how it syncs to disk: \`test/src/bench/README.md\`, "Restate side by side".`,
    `Restate ran last, after every Troupe row, with every Troupe deployment stopped: ${settings.sequentialWarmupTurns} warm-up and ${settings.sequentialSamples} measured sequential turns over ${settings.sequentialSessions} keys, and the concurrent runs with our warm-up and window rule (\`measureClosedLoop\`: ${count(settings.concurrentWarmupMs)} ms warm-up, at least ${count(settings.concurrentWindowMs)} ms, until every key completed two turns in it). Restate's CPU per turn is \`restate-server\` (all threads) + the endpoint process, from per-thread schedstat like ours; the benchmark's client is in neither. Troupe ÷ Restate: below 1 in a latency row and above 1 in a turns/s row mean Troupe is ahead. Restate's concurrent turns in the window and their latency: ${latencies.join("; ") || "none"}.`,
  ];
}
