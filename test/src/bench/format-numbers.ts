/** Number formatting shared by the benchmark report. */

/**
 * The median (mean of the two middle values for an even count).
 *
 * @param values - any order.
 * @returns the median, or undefined when there is no value.
 */
export function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? sorted[middle]
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** A whole number with thousands separators, e.g. `12,345`. */
export function count(value: number): string {
  return Math.round(value).toLocaleString("en-US");
}

/** A rate in msgs/s, or `error` when the run failed. */
export function rate(value: number | undefined): string {
  return value === undefined ? "error" : count(value);
}

/** A duration in ms with 3 significant digits below 100 ms. */
export function ms(value: number): string {
  return value < 10 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : count(value);
}

/** Microseconds as a whole number, or `—`. */
export function micros(value: number | undefined): string {
  return value === undefined ? "—" : count(value);
}

/** A ratio with two decimals, or `—` when not finite. */
export function fixed(value: number | undefined): string {
  return value === undefined || !Number.isFinite(value) ? "—" : value.toFixed(2);
}
