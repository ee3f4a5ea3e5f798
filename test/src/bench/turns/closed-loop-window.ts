import { setTimeout as sleep } from "node:timers/promises";
import { summarizeLatencies, type LatencySummary } from "../latency-summary.js";
import type { CpuTimesMs } from "../process-cpu.js";
import { closedLoopRate } from "./closed-loop-rate.js";
import { cpuPerTurn, turnCpuLabels, type CpuPerTurn } from "./cpu-per-turn.js";
import { cpuBetween } from "./thread-cpu.js";
import { epochNowMs, type TurnTiming } from "./turn-driver.js";

/** Options of {@link measureClosedLoop}. */
export interface ClosedLoopOptions {
  /** Loops, each with one turn in flight at all times. */
  readonly inFlight: number;
  /** Unmeasured time first, in ms; the window also waits until every loop completed a turn. */
  readonly warmupMs: number;
  /** The measured window, in ms, at least; it lasts until every loop completed two turns in it. */
  readonly windowMs: number;
  /** The longest window, in ms. */
  readonly maxWindowMs: number;
  /**
   * Runs the next turn of loop `index` (0 … `inFlight` − 1), resolving when it
   * completed; each loop must use its own session, so timings name it.
   */
  readonly turn: (index: number) => Promise<TurnTiming>;
  /** CPU ms so far by label, read right at the window's start and end. */
  readonly readCpu: () => Promise<CpuTimesMs>;
  /** Labels summed into the CPU total; default `turnCpuLabels` (the Troupe deployment's). */
  readonly cpuTotalLabels?: readonly string[];
  /** Called just before the window opens (before the CPU reading). */
  readonly atWindowStart?: () => Promise<void>;
  /** Called just after the window closed (after the CPU reading). */
  readonly atWindowEnd?: () => Promise<void>;
}

/** What {@link measureClosedLoop} measured in its window. */
export interface ClosedLoopWindow {
  /** Sum over loops of each loop's turns per second in the window (see `closedLoopRate`). */
  readonly turnsPerSecond: number;
  /** Turns completed in the window. */
  readonly turns: number;
  /** Length of the window, in ms. */
  readonly windowMs: number;
  /** `turnsPerSecond` × the window: the turns the costs are divided by. */
  readonly turnsInWindow: number;
  /** Latency of the turns completed in the window. */
  readonly latency: LatencySummary;
  /** The window's CPU ÷ {@link ClosedLoopWindow.turnsInWindow}. */
  readonly cpu: CpuPerTurn;
}

/**
 * A closed loop of turns (issue #12, "e"): `inFlight` loops, each starting its
 * next turn as soon as its previous one completed. After the warm-up (and once
 * every loop completed a turn), the window runs for `windowMs` and until every
 * loop completed two turns in it; the rate is the sum of the loops' own rates
 * in the window (`closedLoopRate`), and CPU per turn is the window's ÷ (rate ×
 * window). Then the loops stop starting turns and the turns in flight finish.
 * Troupe's concurrent rows and Restate's use this one rule.
 *
 * @param options - loops, turn, CPU reader, warm-up and window.
 * @returns the steady-state rate, latency and CPU.
 * @throws the first error of a turn; Error when the window exceeds `maxWindowMs`.
 */
export async function measureClosedLoop(options: ClosedLoopOptions): Promise<ClosedLoopWindow> {
  const timings: TurnTiming[] = [];
  const completions = new Map<string, number[]>();
  const warmLoops = new Set<number>();
  let sending = true;
  let failure: Error | undefined;
  const loops = Array.from({ length: options.inFlight }, async (_, index) => {
    while (sending && failure === undefined) {
      try {
        const timing = await options.turn(index);
        timings.push(timing);
        completions.set(timing.sessionId, [
          ...(completions.get(timing.sessionId) ?? []),
          timing.completedAtMs,
        ]);
        warmLoops.add(index);
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
      (Date.now() - startedAtMs < options.warmupMs || warmLoops.size < options.inFlight)
    )
      await sleep(20);
    throwIfFailed();
    await options.atWindowStart?.();
    const cpuBefore = await options.readCpu();
    const windowStartMs = epochNowMs();
    const cycled = () =>
      [...completions.values()].every(
        (times) => times.filter((atMs) => atMs >= windowStartMs).length >= 2,
      );
    // A timer may fire up to a millisecond early by this clock (libuv keeps
    // its own loop time), so sleep until the window has really lasted.
    for (
      let leftMs = options.windowMs;
      leftMs > 0;
      leftMs = windowStartMs + options.windowMs - epochNowMs()
    )
      await sleep(Math.max(1, Math.ceil(leftMs)));
    while (failed() === undefined && !cycled()) {
      if (epochNowMs() - windowStartMs > options.maxWindowMs)
        throw new Error(`not every session completed two turns within ${options.maxWindowMs} ms`);
      await sleep(20);
    }
    const windowEndMs = epochNowMs();
    const cpuAfter = await options.readCpu();
    await options.atWindowEnd?.();
    throwIfFailed();
    const inWindow = timings.filter(
      (timing) => timing.completedAtMs >= windowStartMs && timing.completedAtMs < windowEndMs,
    );
    const { turnsPerSecond } = closedLoopRate(completions, windowStartMs, windowEndMs);
    const windowMs = windowEndMs - windowStartMs;
    const turnsInWindow = (turnsPerSecond * windowMs) / 1000;
    return {
      turnsPerSecond,
      turns: inWindow.length,
      windowMs,
      turnsInWindow,
      latency: summarizeLatencies(inWindow.map((timing) => timing.durationMs)),
      cpu: cpuPerTurn(
        cpuBetween(cpuBefore, cpuAfter),
        turnsInWindow,
        options.cpuTotalLabels ?? turnCpuLabels,
      ),
    };
  } finally {
    sending = false;
    await Promise.all(loops);
  }
}
