import { ms } from "../format-numbers.js";
import { ratioOf } from "../turns/turn-goals.js";

/**
 * The goals of the Restate side-by-side issue, worded as there, beside
 * `turnGoals` (issue #12): one host, measured in the same run as Restate 1.7
 * on the same machine. Our one-tool turn is the read tool turn.
 */
export const restateGoals = {
  plain: { p50Ms: 6, text: "sequential plain turn p50 ≤ 6 ms and ≤ Restate's" },
  oneTool: { p50Ms: 10, text: "sequential one-tool turn p50 ≤ 10 ms and ≤ Restate's" },
  concurrent: {
    inFlight: 200,
    minRatio: 1.5,
    text: "one host, 200 sessions in flight: ≥ 1.5× Restate's turns/s",
  },
} as const;

/**
 * Judges a sequential p50 against a limit and against Restate's p50 of the
 * equivalent turn in the same run.
 *
 * @param troupeP50Ms - our p50, in ms; undefined when our row failed.
 * @param restateP50Ms - Restate's p50, in ms; undefined when not measured.
 * @param limitMs - the absolute limit, in ms.
 * @returns `yes`, `no: ` with the misses (e.g. `no: p50 > 6 ms, p50 > Restate's 5.90 ms`),
 *   or `unknown: ` when a side is missing (a miss of the limit is still named).
 */
export function judgeSequentialAgainstRestate(
  troupeP50Ms: number | undefined,
  restateP50Ms: number | undefined,
  limitMs: number,
): string {
  if (troupeP50Ms === undefined) return "unknown: Troupe not measured";
  const misses = [
    ...(troupeP50Ms > limitMs ? [`p50 > ${limitMs} ms`] : []),
    ...(restateP50Ms !== undefined && troupeP50Ms > restateP50Ms
      ? [`p50 > Restate's ${ms(restateP50Ms)} ms`]
      : []),
  ];
  if (restateP50Ms === undefined)
    return misses.length === 0
      ? "unknown: Restate not measured"
      : `no: ${misses.join(", ")} (Restate not measured)`;
  return misses.length === 0 ? "yes" : `no: ${misses.join(", ")}`;
}

/**
 * Judges our turns/s against at least `minRatio` × Restate's in the same run.
 *
 * @param troupeTurnsPerSecond - ours; undefined when our run failed.
 * @param restateTurnsPerSecond - Restate's; undefined when not measured.
 * @param minRatio - the least Troupe ÷ Restate that meets the goal, e.g. 1.5.
 * @returns `yes (1.62×)`, `no: 0.80× < 1.5×`, or `unknown: …` when a side is missing.
 */
export function judgeRateAgainstRestate(
  troupeTurnsPerSecond: number | undefined,
  restateTurnsPerSecond: number | undefined,
  minRatio: number,
): string {
  if (troupeTurnsPerSecond === undefined) return "unknown: Troupe not measured";
  const ratio = ratioOf(troupeTurnsPerSecond, restateTurnsPerSecond);
  if (ratio === undefined) return "unknown: Restate not measured";
  return ratio >= minRatio
    ? `yes (${ratio.toFixed(2)}×)`
    : `no: ${ratio.toFixed(2)}× < ${minRatio}×`;
}
