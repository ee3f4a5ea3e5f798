/**
 * A duration in ms as short text: `850 ms`, `1.5 s`, `2 min 5 s`, `3 h 10 min`,
 * `2 d 4 h`; negative durations get a leading `-`.
 *
 * @param durationMs - duration in ms (fractions are rounded to whole ms).
 * @returns the text.
 * @example
 * formatDurationMs(1500); // "1.5 s"
 */
export function formatDurationMs(durationMs: number): string {
  if (!Number.isFinite(durationMs)) return String(durationMs);
  const sign = durationMs < 0 ? "-" : "";
  const ms = Math.round(Math.abs(durationMs));
  if (ms < 1000) return `${sign}${ms} ms`;
  if (ms < 60_000) return `${sign}${trimZero((ms / 1000).toFixed(1))} s`;
  const seconds = Math.floor(ms / 1000);
  if (seconds < 3600) return `${sign}${Math.floor(seconds / 60)} min ${seconds % 60} s`;
  if (seconds < 86_400) {
    return `${sign}${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
  }
  return `${sign}${Math.floor(seconds / 86_400)} d ${Math.floor((seconds % 86_400) / 3600)} h`;
}

function trimZero(text: string): string {
  return text.endsWith(".0") ? text.slice(0, -2) : text;
}
