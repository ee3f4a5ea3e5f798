import type { LatencySummary } from "../latency-summary.js";
import { summarizeLatencies } from "../latency-summary.js";
import { cpuPerTurn, type CpuPerTurn } from "./cpu-per-turn.js";
import { groupTurns, summarizeHops, type HopBreakdown } from "./hop-breakdown.js";
import { readInboxRange } from "./inbox-journal.js";
import { settledStreamCounts } from "./stream-state.js";
import { cpuBetween } from "./thread-cpu.js";
import type { TurnTiming } from "./turn-driver.js";
import type { TurnDeployment } from "./turn-deployment.js";

/**
 * What {@link measureSequentialTurns} needs of a deployment: its turn driver,
 * CPU reader and the JetStream clients and stream names to read the journal
 * with (a {@link TurnDeployment}, or `troupe dev`'s: `measure-dev-turns.ts`).
 */
export type SequentialTurnsTarget = Pick<TurnDeployment, "driver" | "readCpu"> & {
  readonly cluster: Pick<TurnDeployment["cluster"], "js" | "jsm" | "streams">;
};

/** Options of {@link measureSequentialTurns}. */
export interface SequentialTurnsOptions {
  /** Session ids are `<prefix>-0` … `<prefix>-<sessions - 1>`. */
  readonly prefix: string;
  /** The user message of every turn, e.g. `hello` or `/tool lookup {"key":"k"}`. */
  readonly text: string;
  /** Sessions the turns go to, round robin. */
  readonly sessions: number;
  /** Turns run first and not measured (at least `sessions`, so every session is warm). */
  readonly warmupTurns: number;
  /** Measured turns. */
  readonly samples: number;
}

/** What {@link measureSequentialTurns} measured. */
export interface SequentialTurnsResult {
  readonly latency: LatencySummary;
  /** Inbox messages stored over the measured turns ÷ turns: the journaled hops of a turn. */
  readonly inboxMessagesPerTurn: number;
  readonly cpu: CpuPerTurn;
  /** Where the time of a turn goes, from the journal's timestamps. */
  readonly breakdown: HopBreakdown;
}

/**
 * Sequential turns over warm sessions, one turn in flight at a time: `warmupTurns`
 * unmeasured, then `samples` turns round robin over the sessions, each sent when
 * the previous one's `run.completed` arrived. Measures latency percentiles, CPU
 * per turn (host + servers) over the measured turns, the inbox messages per turn,
 * and the per-hop breakdown from the journaled messages of the measured turns.
 *
 * @param deployment - a started deployment (see {@link SequentialTurnsTarget}).
 * @param options - sessions, text, counts.
 * @returns the measurements.
 */
export async function measureSequentialTurns(
  deployment: SequentialTurnsTarget,
  options: SequentialTurnsOptions,
): Promise<SequentialTurnsResult> {
  const { cluster, driver } = deployment;
  const session = (index: number) => `${options.prefix}-${index % options.sessions}`;
  for (let index = 0; index < options.warmupTurns; index += 1)
    await driver.turn(session(index), options.text);
  const before = await settledStreamCounts(cluster.jsm, cluster.streams.inbox);
  const timings: TurnTiming[] = [];
  const cpuBefore = await deployment.readCpu();
  for (let index = 0; index < options.samples; index += 1)
    timings.push(await driver.turn(session(index), options.text));
  const cpuAfter = await deployment.readCpu();
  const after = await settledStreamCounts(cluster.jsm, cluster.streams.inbox);
  const journal = await readInboxRange(
    cluster.js,
    cluster.streams.inbox,
    before.lastSeq + 1,
    after.lastSeq,
  );
  return {
    latency: summarizeLatencies(timings.map((timing) => timing.durationMs)),
    inboxMessagesPerTurn: (after.lastSeq - before.lastSeq) / options.samples,
    cpu: cpuPerTurn(cpuBetween(cpuBefore, cpuAfter), options.samples),
    breakdown: summarizeHops(groupTurns(journal), timings),
  };
}
