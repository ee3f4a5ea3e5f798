import { setTimeout as sleep } from "node:timers/promises";

/** Options of {@link pollUntil}. */
export interface PollUntilOptions {
  /** Give up after this long, in ms. */
  readonly timeoutMs: number;
  /** Pause between two checks, in ms; defaults to 10 ms. */
  readonly intervalMs?: number | undefined;
}

/**
 * Calls `check` until it returns a value other than `undefined`, or the time is up.
 *
 * @param check - Returns the awaited value, or `undefined` for "not yet". An error
 *   it throws ends the polling and is rethrown (use that to stop early, for
 *   example when the server process has exited).
 * @param options - See {@link PollUntilOptions}.
 * @returns The first value `check` returned, or `undefined` on timeout.
 */
export async function pollUntil<T>(
  check: () => Promise<T | undefined>,
  options: PollUntilOptions,
): Promise<T | undefined> {
  const deadline = performance.now() + options.timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (performance.now() >= deadline) return undefined;
    await sleep(options.intervalMs ?? 10);
  }
}
