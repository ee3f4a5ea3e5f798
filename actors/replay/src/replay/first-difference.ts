import { isDeepStrictEqual } from "node:util";

/** Where two values first differ. */
export interface Difference {
  /** JSON-pointer-like path, e.g. `/state/context/count`. */
  readonly path: string;
  readonly expected: unknown;
  readonly actual: unknown;
}

/**
 * Finds the first difference between two plain-data values (depth first, keys in
 * sorted order).
 *
 * @param expected - e.g. the stored snapshot.
 * @param actual - e.g. the replayed one.
 * @returns undefined when equal.
 */
export function firstDifference(
  expected: unknown,
  actual: unknown,
  path = "",
): Difference | undefined {
  if (isDeepStrictEqual(expected, actual)) return undefined;
  const bothObjects =
    typeof expected === "object" &&
    expected !== null &&
    typeof actual === "object" &&
    actual !== null &&
    Array.isArray(expected) === Array.isArray(actual) &&
    !(expected instanceof Uint8Array);
  if (!bothObjects) return { path: path || "/", expected, actual };
  const left = expected as Record<string, unknown>;
  const right = actual as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(left), ...Object.keys(right)])].sort();
  for (const key of keys) {
    const found = firstDifference(left[key], right[key], `${path}/${key}`);
    if (found !== undefined) return found;
  }
  return { path: path || "/", expected, actual };
}
