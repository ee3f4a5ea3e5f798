import type { TroupeClient } from "@troupe/client";
import type { CpuTimesMs } from "../process-cpu.js";
import { summarizeLatencies, type LatencySummary } from "../latency-summary.js";
import { cpuPerTurn, type CpuPerTurn } from "./cpu-per-turn.js";
import { cpuBetween } from "./thread-cpu.js";

/** Options of {@link measureNewSessionTurns}. */
export interface NewSessionTurnsOptions {
  /** Session ids are `<prefix>-0`, `<prefix>-1`, …: a new one for every turn. */
  readonly prefix: string;
  /** The user message of every turn. */
  readonly text: string;
  /** Turns run first and not measured. */
  readonly warmupTurns: number;
  /** Measured turns. */
  readonly samples: number;
  /** Longest wait for one turn's outcome, in ms. */
  readonly turnTimeoutMs: number;
}

/** What {@link measureNewSessionTurns} measured. */
export interface NewSessionTurnsResult {
  /** `sendAndWait` call to its resolved outcome, in ms. */
  readonly latency: LatencySummary;
  readonly cpu: CpuPerTurn;
}

/**
 * Sequential turns the way the author timed `troupe dev`: every turn
 * goes to a new session, as `await client.sendAndWait(sessionId, text)` (which
 * reads the events stream's last sequence, publishes, then follows the
 * session's events until the run ends), one at a time. A turn's latency is the
 * call's duration; a session's first turn also journals its `agent.resolve`.
 *
 * @param client - a connected client of the deployment.
 * @param readCpu - CPU ms so far by process (`threadCpuReader`).
 * @param options - prefix, text, counts, timeout.
 * @returns latency and CPU per turn of the measured turns.
 * @throws Error when a run does not complete (its status and error), or as
 *   `sendAndWait` (e.g. `RunTimeoutError` after `turnTimeoutMs`).
 */
export async function measureNewSessionTurns(
  client: TroupeClient,
  readCpu: () => Promise<CpuTimesMs>,
  options: NewSessionTurnsOptions,
): Promise<NewSessionTurnsResult> {
  const turn = async (index: number): Promise<number> => {
    const startedAtMs = performance.now();
    const outcome = await client.sendAndWait(`${options.prefix}-${index}`, options.text, {
      timeoutMs: options.turnTimeoutMs,
    });
    const durationMs = performance.now() - startedAtMs;
    if (outcome.status !== "completed") {
      throw new Error(`session ${options.prefix}-${index}: run ${outcome.status}`);
    }
    return durationMs;
  };
  for (let index = 0; index < options.warmupTurns; index += 1) await turn(index);
  const durations: number[] = [];
  const before = await readCpu();
  for (let index = options.warmupTurns; index < options.warmupTurns + options.samples; index += 1)
    durations.push(await turn(index));
  const after = await readCpu();
  return {
    latency: summarizeLatencies(durations),
    cpu: cpuPerTurn(cpuBetween(before, after), options.samples),
  };
}
