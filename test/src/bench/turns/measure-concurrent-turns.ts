import type { LatencySummary } from "../latency-summary.js";
import { measureClosedLoop } from "./closed-loop-window.js";
import type { CpuPerTurn } from "./cpu-per-turn.js";
import { streamCounts, type StreamCounts } from "./stream-state.js";
import type { TurnDeployment } from "./turn-deployment.js";

/** Options of {@link measureConcurrentTurns}. */
export interface ConcurrentTurnsOptions {
  /** Session ids are `<prefix>-0` … `<prefix>-<inFlight - 1>`. */
  readonly prefix: string;
  readonly text: string;
  /** Sessions, each with one turn in flight at all times. */
  readonly inFlight: number;
  /** Unmeasured time first, in ms; the window also waits until every session completed a turn. */
  readonly warmupMs: number;
  /** The measured window, in ms, at least; it lasts until every session completed two turns in it. */
  readonly windowMs: number;
  /** The longest window, in ms. */
  readonly maxWindowMs: number;
}

/** What {@link measureConcurrentTurns} measured. */
export interface ConcurrentTurnsResult {
  readonly inFlight: number;
  /** Sum over sessions of each session's turns per second in the window (see `closedLoopRate`). */
  readonly turnsPerSecond: number;
  /** Turns completed in the window. */
  readonly turns: number;
  /** Length of the window, in ms. */
  readonly windowMs: number;
  /** Latency of the turns completed in the window. */
  readonly latency: LatencySummary;
  readonly cpu: CpuPerTurn;
  /** Inbox messages stored in the window ÷ (`turnsPerSecond` × window). */
  readonly inboxMessagesPerTurn: number;
}

/**
 * Concurrent turns in a closed loop (issue #12, "e"): `inFlight` sessions, each
 * sending its next message as soon as its previous run completed. After the
 * warm-up (and once every session completed a turn), the window runs for
 * `windowMs` and until every session completed two turns in it; the rate is the
 * sum of the sessions' own rates in the window (`closedLoopRate`), and CPU and
 * inbox messages per turn are those of the window ÷ (rate × window). Then
 * sending stops and the turns in flight finish. The loop and its window are
 * `measureClosedLoop`'s, which the Restate rows use too.
 *
 * @param deployment - a started deployment.
 * @param options - sessions, text, warm-up and window.
 * @returns the steady-state rate, latency and costs.
 * @throws Error when a turn fails.
 */
export async function measureConcurrentTurns(
  deployment: TurnDeployment,
  options: ConcurrentTurnsOptions,
): Promise<ConcurrentTurnsResult> {
  const { cluster, driver } = deployment;
  let inboxBefore: StreamCounts | undefined;
  let inboxAfter: StreamCounts | undefined;
  const window = await measureClosedLoop({
    inFlight: options.inFlight,
    warmupMs: options.warmupMs,
    windowMs: options.windowMs,
    maxWindowMs: options.maxWindowMs,
    turn: (index) => driver.turn(`${options.prefix}-${index}`, options.text),
    readCpu: deployment.readCpu,
    atWindowStart: async () => {
      inboxBefore = await streamCounts(cluster.jsm, cluster.streams.inbox);
    },
    atWindowEnd: async () => {
      inboxAfter = await streamCounts(cluster.jsm, cluster.streams.inbox);
    },
  });
  const inboxMessages = (inboxAfter?.lastSeq ?? Number.NaN) - (inboxBefore?.lastSeq ?? Number.NaN);
  return {
    inFlight: options.inFlight,
    turnsPerSecond: window.turnsPerSecond,
    turns: window.turns,
    windowMs: window.windowMs,
    latency: window.latency,
    cpu: window.cpu,
    inboxMessagesPerTurn: inboxMessages / window.turnsInWindow,
  };
}
