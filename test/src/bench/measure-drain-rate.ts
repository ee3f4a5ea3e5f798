import type { JetStreamManager } from "@nats-io/jetstream";
import type { CpuTimesMs } from "./process-cpu.js";

/** Options of {@link measureDrainRate}. */
export interface DrainRateOptions {
  /** Stream whose message count grows by one per processed message (the events stream). */
  readonly stream: string;
  /** Messages the stream holds when the backlog is done. */
  readonly total: number;
  /** Give up after this long, in ms. */
  readonly timeoutMs: number;
  /** Pause between two polls, in ms; default 20 ms. */
  readonly pollIntervalMs?: number;
  /** Stops polling early (the result then says `completed: false`). */
  readonly signal?: AbortSignal;
  /** Read at every poll, to report the CPU time per message inside the window. */
  readonly readCpu?: () => Promise<CpuTimesMs>;
}

/** What {@link measureDrainRate} saw. */
export interface DrainRate {
  /** Processing rate between 10 % and 90 % of `total`, in messages per second. */
  readonly messagesPerSecond: number;
  /** Whether `total` was reached before the timeout. */
  readonly completed: boolean;
  /** Time from the first poll to the last, in ms. */
  readonly elapsedMs: number;
  /** Polls made. */
  readonly polls: number;
  /**
   * CPU time per message by process, in µs, between the first polls at or past
   * the 10 % and 90 % marks (present when `readCpu` was given).
   */
  readonly cpuPerMessageUs: CpuTimesMs | undefined;
}

interface Sample {
  readonly atMs: number;
  readonly count: number;
  readonly cpu: CpuTimesMs | undefined;
}

/**
 * Polls `streams.info(stream).state.messages` until it reaches `total`, and
 * reports the rate between the 10 % and 90 % marks (start-up and the tail are
 * left out). Each mark's time is interpolated between the two polls around it;
 * a poll is timed at the middle of its request.
 *
 * @param jsm - JetStream manager (its own connection should not be the one under load).
 * @param options - stream, total and timeout.
 * @returns the rate; if the 90 % mark was not reached, the rate up to the last poll.
 */
export async function measureDrainRate(
  jsm: JetStreamManager,
  options: DrainRateOptions,
): Promise<DrainRate> {
  const samples: Sample[] = [];
  const startedAt = performance.now();
  const pollIntervalMs = options.pollIntervalMs ?? 20;
  let count = 0;
  while (
    count < options.total &&
    performance.now() - startedAt < options.timeoutMs &&
    options.signal?.aborted !== true
  ) {
    const before = performance.now();
    count = (await jsm.streams.info(options.stream)).state.messages;
    const atMs = (before + performance.now()) / 2;
    samples.push({ atMs, count, cpu: await options.readCpu?.() });
    if (count < options.total) await new Promise((resolve) => setTimeout(resolve, pollIntervalMs));
  }
  const low = options.total * 0.1;
  const last = samples[samples.length - 1] ?? { atMs: startedAt, count: 0 };
  const high = Math.min(options.total * 0.9, last.count);
  const lowAtMs = timeOfCount(samples, low);
  const highAtMs = timeOfCount(samples, high);
  const messagesPerSecond =
    lowAtMs === undefined || highAtMs === undefined || highAtMs <= lowAtMs
      ? 0
      : ((high - low) / (highAtMs - lowAtMs)) * 1000;
  return {
    messagesPerSecond,
    completed: count >= options.total,
    elapsedMs: last.atMs - (samples[0]?.atMs ?? startedAt),
    polls: samples.length,
    cpuPerMessageUs: cpuPerMessage(samples, low, high),
  };
}

function cpuPerMessage(
  samples: readonly Sample[],
  low: number,
  high: number,
): CpuTimesMs | undefined {
  const first = samples.find((sample) => sample.count >= low);
  const last = samples.find((sample) => sample.count >= high);
  if (first?.cpu === undefined || last?.cpu === undefined || last.count <= first.count)
    return undefined;
  const messages = last.count - first.count;
  return Object.fromEntries(
    Object.entries(last.cpu).map(([label, ms]) => [
      label,
      ((ms - (first.cpu?.[label] ?? ms)) * 1000) / messages,
    ]),
  );
}

function timeOfCount(samples: readonly Sample[], target: number): number | undefined {
  const index = samples.findIndex((sample) => sample.count >= target);
  const after = samples[index];
  if (after === undefined) return undefined;
  const before = samples[index - 1];
  if (before === undefined || after.count === before.count) return after.atMs;
  const fraction = (target - before.count) / (after.count - before.count);
  return before.atMs + fraction * (after.atMs - before.atMs);
}
