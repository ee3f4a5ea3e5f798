import { summarizeLatencies, type LatencySummary } from "../latency-summary.js";
import { cpuPerTurn, type CpuPerTurn } from "./cpu-per-turn.js";
import { settledStreamCounts } from "./stream-state.js";
import { cpuBetween } from "./thread-cpu.js";
import type { TurnDeployment } from "./turn-deployment.js";

/** Options of {@link measureLongSession}. */
export interface LongSessionOptions {
  readonly sessionId: string;
  readonly text: string;
  /** Turns of the session, e.g. 500. */
  readonly messages: number;
  /** Size of the first and last window, e.g. 30 (messages 1–30 and 471–500). */
  readonly window: number;
}

/** One window of {@link measureLongSession}. */
export interface LongSessionWindow {
  /** First and last message number of the window (from 1). */
  readonly from: number;
  readonly to: number;
  readonly latency: LatencySummary;
  readonly cpu: CpuPerTurn;
  /** Inbox messages stored over the window's turns ÷ turns. */
  readonly inboxMessagesPerTurn: number;
}

/** What {@link measureLongSession} measured. */
export interface LongSessionResult {
  readonly messages: number;
  readonly first: LongSessionWindow;
  readonly last: LongSessionWindow;
}

/**
 * Message 1 vs message N of one session (issue #12, "d"): `messages` sequential
 * turns of one new session, each sent when the previous run completed. The first
 * and last `window` turns are measured — latency (send → `run.completed`), CPU
 * per message (read just before the window's first send and just after its last
 * turn completed) and inbox messages per turn.
 *
 * @param deployment - a started deployment.
 * @param options - session, text, count, window size.
 * @returns both windows.
 * @throws RangeError when two windows do not fit in `messages`.
 */
export async function measureLongSession(
  deployment: TurnDeployment,
  options: LongSessionOptions,
): Promise<LongSessionResult> {
  const { messages, window } = options;
  if (window < 1 || 2 * window > messages)
    throw new RangeError(`two windows of ${window} do not fit in ${messages} messages`);
  const windows: LongSessionWindow[] = [];
  for (const from of [1, messages - window + 1]) {
    let number = windows.length === 0 ? 1 : window + 1;
    // Unmeasured turns up to the window.
    for (; number < from; number += 1)
      await deployment.driver.turn(options.sessionId, options.text);
    const { cluster } = deployment;
    const inboxBefore = await settledStreamCounts(cluster.jsm, cluster.streams.inbox);
    const durationsMs: number[] = [];
    const cpuBefore = await deployment.readCpu();
    for (; number < from + window; number += 1)
      durationsMs.push((await deployment.driver.turn(options.sessionId, options.text)).durationMs);
    const cpuAfter = await deployment.readCpu();
    const inboxAfter = await settledStreamCounts(cluster.jsm, cluster.streams.inbox);
    windows.push({
      from,
      to: from + window - 1,
      latency: summarizeLatencies(durationsMs),
      cpu: cpuPerTurn(cpuBetween(cpuBefore, cpuAfter), window),
      inboxMessagesPerTurn: (inboxAfter.lastSeq - inboxBefore.lastSeq) / window,
    });
  }
  const [first, last] = windows;
  if (first === undefined || last === undefined) throw new Error("windows missing");
  return { messages, first, last };
}
