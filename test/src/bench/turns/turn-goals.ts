import type { LatencySummary } from "../latency-summary.js";

/**
 * The goals of issue #12 on the 2-core benchmark machine (scripted model), with
 * their wording from the issue. KB are 1,000 bytes (the "≈18 KB per
 * actor" is 365 MB ÷ 20,000 actors).
 */
export const turnGoals = {
  plain: { p50Ms: 5, p99Ms: 20, text: "plain turn p50 ≤ 5 ms, p99 ≤ 20 ms" },
  oneTool: { p50Ms: 8, p99Ms: 30, text: "one-tool turn p50 ≤ 8 ms, p99 ≤ 30 ms" },
  longSession: {
    maxRatio: 1.15,
    text: "message 500 / message 1 ≤ 1.15× in processing time and CPU per message",
  },
  concurrentPlain: {
    inFlight: 200,
    turnsPerSecond: 1000,
    text: "concurrent plain turns on one host (200 sessions in flight) ≥ 1,000/s",
  },
  concurrentOneTool: { text: "concurrent one-tool turns reported, with CPU per turn" },
  heap: {
    bytesPerActiveActor: 10_000,
    /** "Back near the baseline": heap after passivation at most this × the heap before. */
    nearBaselineRatio: 1.1,
    text: "host heap ≤ 10 KB per active actor, and back near the baseline once actors are passivated",
  },
  redis: { bytesPerIdleSession: 2_000, text: "Redis ≤ 2 KB per idle session" },
  troupeDev: {
    maxRatio: 1.2,
    text: "through `troupe dev` within 1.2× of the bare host (sequential p50)",
  },
} as const;

/**
 * Judges a turn through `troupe dev` against the bare host's: its p50 at most
 * {@link turnGoals}`.troupeDev.maxRatio` × the bare host's.
 *
 * @param devP50Ms - p50 through `troupe dev`, in ms.
 * @param bareP50Ms - p50 of the same turns on the bare host, in ms; undefined when not measured.
 * @returns `yes (1.08×)`, `no: 1.31× > 1.2×`, or `unknown: bare host not measured`.
 */
export function judgeDevTurn(devP50Ms: number, bareP50Ms: number | undefined): string {
  const ratio = ratioOf(devP50Ms, bareP50Ms);
  if (ratio === undefined) return "unknown: bare host not measured";
  const { maxRatio } = turnGoals.troupeDev;
  return ratio <= maxRatio
    ? `yes (${ratio.toFixed(2)}×)`
    : `no: ${ratio.toFixed(2)}× > ${maxRatio}×`;
}

/**
 * Judges a latency summary against p50 and p99 limits.
 *
 * @param latency - the measured summary.
 * @param goal - limits in ms.
 * @returns `yes`, or `no: ` and the limits missed, e.g. `no: p50 > 5 ms`.
 */
export function judgeLatency(
  latency: LatencySummary,
  goal: { readonly p50Ms: number; readonly p99Ms: number },
): string {
  const misses = [
    ...(latency.p50Ms > goal.p50Ms ? [`p50 > ${goal.p50Ms} ms`] : []),
    ...(latency.p99Ms > goal.p99Ms ? [`p99 > ${goal.p99Ms} ms`] : []),
  ];
  return misses.length === 0 ? "yes" : `no: ${misses.join(", ")}`;
}

/**
 * Judges "at most `limit`" for named values.
 *
 * @param values - name → measured value (undefined values are reported as unknown).
 * @param limit - the largest value that meets the goal.
 * @param unit - appended to the limit in the verdict, e.g. `×`.
 * @returns `yes`, or `no: ` and the names over the limit, e.g. `no: CPU > 1.15×`.
 */
export function judgeAtMost(
  values: Readonly<Record<string, number | undefined>>,
  limit: number,
  unit: string,
): string {
  const misses = Object.entries(values).flatMap(([name, value]) =>
    value === undefined || !Number.isFinite(value)
      ? [`${name} unknown`]
      : value > limit
        ? [`${name} > ${limit}${unit}`]
        : [],
  );
  return misses.length === 0 ? "yes" : `no: ${misses.join(", ")}`;
}

/**
 * `later ÷ earlier`, or undefined when either is missing or `earlier` is not positive.
 *
 * @param later - e.g. the p50 of messages 471–500.
 * @param earlier - e.g. the p50 of messages 1–30.
 * @returns the ratio.
 */
export function ratioOf(
  later: number | undefined,
  earlier: number | undefined,
): number | undefined {
  return later === undefined || earlier === undefined || !(earlier > 0)
    ? undefined
    : later / earlier;
}
