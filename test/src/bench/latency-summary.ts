/** Percentiles of a set of durations, in ms. */
export interface LatencySummary {
  /** Number of samples. */
  readonly count: number;
  /** Median, in ms. */
  readonly p50Ms: number;
  /** 99th percentile, in ms. */
  readonly p99Ms: number;
  /** Largest sample, in ms. */
  readonly maxMs: number;
}

/**
 * The value at percentile `fraction` by the nearest-rank method (no interpolation):
 * the smallest sample with at least `fraction` of the samples at or below it.
 *
 * @param sorted - samples in ascending order (at least one).
 * @param fraction - from 0 (exclusive) to 1, e.g. 0.99.
 * @returns the sample at that rank.
 * @throws RangeError when `sorted` is empty.
 */
export function nearestRank(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) throw new RangeError("no samples");
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

/**
 * Median, p99 and maximum of durations in ms.
 *
 * @param durationsMs - samples in ms, any order (at least one).
 * @returns the summary.
 * @throws RangeError when there is no sample.
 */
export function summarizeLatencies(durationsMs: readonly number[]): LatencySummary {
  const sorted = [...durationsMs].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50Ms: nearestRank(sorted, 0.5),
    p99Ms: nearestRank(sorted, 0.99),
    maxMs: sorted[sorted.length - 1] ?? Number.NaN,
  };
}
