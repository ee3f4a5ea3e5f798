import { setTimeout as sleep } from "node:timers/promises";
import { summarizeLatencies, type LatencySummary } from "../latency-summary.js";
import { closedLoopRate } from "./closed-loop-rate.js";
import { cpuPerTurn, type CpuPerTurn } from "./cpu-per-turn.js";
import { streamCounts } from "./stream-state.js";
import { cpuBetween } from "./thread-cpu.js";
import { epochNowMs, type TurnTiming } from "./turn-driver.js";
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
 * sending stops and the turns in flight finish.
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
  const timings: TurnTiming[] = [];
  const completions = new Map<string, number[]>();
  const warmSessions = new Set<number>();
  let sending = true;
  let failure: Error | undefined;
  const loops = Array.from({ length: options.inFlight }, async (_, index) => {
    while (sending && failure === undefined) {
      try {
        const timing = await driver.turn(`${options.prefix}-${index}`, options.text);
        timings.push(timing);
        completions.set(timing.sessionId, [
          ...(completions.get(timing.sessionId) ?? []),
          timing.completedAtMs,
        ]);
        warmSessions.add(index);
      } catch (error) {
        failure ??= error instanceof Error ? error : new Error(String(error));
      }
    }
  });
  // Read through a function: the loops set `failure` while this function awaits.
  const failed = (): Error | undefined => failure;
  const throwIfFailed = (): void => {
    const error = failed();
    if (error !== undefined) throw error;
  };
  try {
    const startedAtMs = Date.now();
    while (
      failed() === undefined &&
      (Date.now() - startedAtMs < options.warmupMs || warmSessions.size < options.inFlight)
    )
      await sleep(20);
    throwIfFailed();
    const inboxBefore = await streamCounts(cluster.jsm, cluster.streams.inbox);
    const cpuBefore = await deployment.readCpu();
    const windowStartMs = epochNowMs();
    const cycled = () =>
      [...completions.values()].every(
        (times) => times.filter((atMs) => atMs >= windowStartMs).length >= 2,
      );
    await sleep(options.windowMs);
    while (failed() === undefined && !cycled()) {
      if (epochNowMs() - windowStartMs > options.maxWindowMs)
        throw new Error(`not every session completed two turns within ${options.maxWindowMs} ms`);
      await sleep(20);
    }
    const windowEndMs = epochNowMs();
    const cpuAfter = await deployment.readCpu();
    const inboxAfter = await streamCounts(cluster.jsm, cluster.streams.inbox);
    throwIfFailed();
    const inWindow = timings.filter(
      (timing) => timing.completedAtMs >= windowStartMs && timing.completedAtMs < windowEndMs,
    );
    const { turnsPerSecond } = closedLoopRate(completions, windowStartMs, windowEndMs);
    const windowMs = windowEndMs - windowStartMs;
    const turnsInWindow = (turnsPerSecond * windowMs) / 1000;
    return {
      inFlight: options.inFlight,
      turnsPerSecond,
      turns: inWindow.length,
      windowMs,
      latency: summarizeLatencies(inWindow.map((timing) => timing.durationMs)),
      cpu: cpuPerTurn(cpuBetween(cpuBefore, cpuAfter), turnsInWindow),
      inboxMessagesPerTurn: (inboxAfter.lastSeq - inboxBefore.lastSeq) / turnsInWindow,
    };
  } finally {
    sending = false;
    await Promise.all(loops);
  }
}
