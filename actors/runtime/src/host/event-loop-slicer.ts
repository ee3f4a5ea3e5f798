import { setImmediate as nextTurn } from "node:timers/promises";

/**
 * Default work slice of {@link eventLoopSlicer}, in ms: long work gives the
 * event loop a turn after this much (heavy work must not hold the
 * loop for more than a few milliseconds at a time).
 */
export const DEFAULT_WORK_SLICE_MS = 4;

/**
 * Cuts long synchronous work into slices: call the returned function between
 * steps of the work (`await slice()`); once more than `sliceMs` passed since
 * the last turn it resolves on the next turn of the event loop
 * (`setImmediate`), so timers, I/O and lease bookkeeping run in between;
 * otherwise it resolves at once (a microtask).
 *
 * @param sliceMs - most ms of work between two turns; default {@link DEFAULT_WORK_SLICE_MS}.
 * @returns the function to await between steps.
 * @example
 * ```ts
 * const slice = eventLoopSlicer();
 * for (const message of messages) {
 *   decode(message);
 *   await slice();
 * }
 * ```
 */
export function eventLoopSlicer(sliceMs = DEFAULT_WORK_SLICE_MS): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < sliceMs) return;
    await nextTurn();
    since = performance.now();
  };
}
