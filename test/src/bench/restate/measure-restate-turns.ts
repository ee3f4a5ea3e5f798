import { summarizeLatencies, type LatencySummary } from "../latency-summary.js";
import { measureClosedLoop, type ClosedLoopWindow } from "../turns/closed-loop-window.js";
import { cpuPerTurn, type CpuPerTurn } from "../turns/cpu-per-turn.js";
import { cpuBetween } from "../turns/thread-cpu.js";
import type { TurnTiming } from "../turns/turn-driver.js";
import { restateCpuLabels, type RestateDeployment } from "./restate-deployment.js";
import type { RestateTurnKind } from "./turn-object.js";

/** What {@link measureRestateSequential} measured. */
export interface RestateSequentialResult {
  readonly latency: LatencySummary;
  /** `restate-server` + `endpoint` per turn (the benchmark's client, `node`, apart). */
  readonly cpu: CpuPerTurn;
}

/** Options of {@link measureRestateSequential}. */
export interface RestateSequentialOptions {
  /** Object keys are `<prefix>-0` … `<prefix>-<sessions - 1>`. */
  readonly prefix: string;
  readonly kind: RestateTurnKind;
  readonly text: string;
  /** Keys the turns go to, round robin. */
  readonly sessions: number;
  /** Turns run first and not measured (at least `sessions`, so every key has state). */
  readonly warmupTurns: number;
  /** Measured turns. */
  readonly samples: number;
}

/**
 * Sequential Restate turns, one in flight at a time, as `measureSequentialTurns`
 * runs ours: `warmupTurns` unmeasured, then `samples` turns round robin over
 * the keys; latency percentiles and CPU per turn over the measured turns.
 *
 * @param deployment - a started Restate deployment.
 * @param options - keys, handler, text, counts.
 * @returns the measurements.
 * @throws Error when a turn fails.
 */
export async function measureRestateSequential(
  deployment: RestateDeployment,
  options: RestateSequentialOptions,
): Promise<RestateSequentialResult> {
  const { driver } = deployment;
  const key = (index: number) => `${options.prefix}-${index % options.sessions}`;
  for (let index = 0; index < options.warmupTurns; index += 1)
    await driver.turn(key(index), options.kind, options.text);
  const timings: TurnTiming[] = [];
  const cpuBefore = await deployment.readCpu();
  for (let index = 0; index < options.samples; index += 1)
    timings.push(await driver.turn(key(index), options.kind, options.text));
  const cpuAfter = await deployment.readCpu();
  return {
    latency: summarizeLatencies(timings.map((timing) => timing.durationMs)),
    cpu: cpuPerTurn(cpuBetween(cpuBefore, cpuAfter), options.samples, restateCpuLabels),
  };
}

/** Options of {@link measureRestateConcurrent}. */
export interface RestateConcurrentOptions {
  /** Object keys are `<prefix>-0` … `<prefix>-<inFlight - 1>`. */
  readonly prefix: string;
  readonly kind: RestateTurnKind;
  readonly text: string;
  readonly inFlight: number;
  readonly warmupMs: number;
  readonly windowMs: number;
  readonly maxWindowMs: number;
}

/**
 * Concurrent Restate turns in a closed loop, with the window rule of our
 * concurrent rows (`measureClosedLoop`): `inFlight` keys, each calling its next
 * turn when the previous answer arrived.
 *
 * @param deployment - a started Restate deployment.
 * @param options - keys, handler, text, warm-up and window (ms).
 * @returns the window's rate, latency and CPU per turn.
 * @throws Error when a turn fails or the window exceeds `maxWindowMs`.
 */
export async function measureRestateConcurrent(
  deployment: RestateDeployment,
  options: RestateConcurrentOptions,
): Promise<ClosedLoopWindow> {
  return await measureClosedLoop({
    inFlight: options.inFlight,
    warmupMs: options.warmupMs,
    windowMs: options.windowMs,
    maxWindowMs: options.maxWindowMs,
    turn: (index) =>
      deployment.driver.turn(`${options.prefix}-${index}`, options.kind, options.text),
    readCpu: deployment.readCpu,
    cpuTotalLabels: restateCpuLabels,
  });
}
