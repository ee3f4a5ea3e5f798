import { InvalidArgumentError } from "commander";

const UNIT_MS: Readonly<Record<string, number>> = {
  ms: 1,
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

/**
 * Reads a `--since` value: a duration back from `nowMs` (`90s`, `10m`, `2h`,
 * `1d`, `500ms`; a number and one unit) or a time `Date.parse` reads (ISO 8601,
 * e.g. `2026-12-01T03:00:00Z`).
 *
 * @param value - the flag's text.
 * @param nowMs - the current time, Unix ms.
 * @returns the time, Unix ms.
 * @throws InvalidArgumentError (commander prints it with the usage) for anything else.
 * @example parseSince("10m", Date.UTC(2026, 11, 1, 3, 10)) // Date.UTC(2026, 11, 1, 3, 0)
 */
export function parseSince(value: string, nowMs: number): number {
  const duration = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)$/.exec(value.trim());
  if (duration !== null) {
    return nowMs - Number(duration[1]) * (UNIT_MS[duration[2] ?? ""] ?? Number.NaN);
  }
  // A bare number is ambiguous (seconds? ms? a year?): refused, like anything else.
  const time = /^\d+$/.test(value.trim()) ? Number.NaN : Date.parse(value);
  if (Number.isNaN(time)) {
    throw new InvalidArgumentError(
      `expected a duration (90s, 10m, 2h, 1d) or a time (2026-12-01T03:00:00Z), got "${value}"`,
    );
  }
  return time;
}
