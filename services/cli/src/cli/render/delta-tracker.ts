import type { RunDelta } from "@troupe/protocol";

/**
 * What to do with a `run.delta`: `print` it, `skip` it (already printed, or a
 * stale attempt), or `retry` — a higher attempt of a model call whose earlier
 * provisional text was printed: the text is void, print a marker, then it.
 */
export type DeltaDecision = "print" | "skip" | "retry";

interface CallState {
  readonly runId: string;
  attempt: number;
  readonly indexes: Set<number>;
}

/**
 * Remembers which deltas were printed, per model call (`modelCallId`, else the
 * run), so a stream that replays stored deltas or delivers a retry prints each
 * piece of text once and drops the text of superseded stream attempts.
 */
export class DeltaTracker {
  readonly #calls = new Map<string, CallState>();
  readonly #endedRuns = new Set<string>();

  /**
   * Decides about one delta and records it.
   *
   * @param delta - the `run.delta` payload.
   * @returns see {@link DeltaDecision}; `skip` for any delta of a run that {@link endRun} ended.
   */
  accept(delta: RunDelta): DeltaDecision {
    if (this.#endedRuns.has(delta.runId)) return "skip";
    const key = delta.modelCallId ?? `run:${delta.runId}`;
    const call = this.#calls.get(key);
    if (call === undefined) {
      this.#calls.set(key, {
        runId: delta.runId,
        attempt: delta.attempt,
        indexes: indexSet(delta),
      });
      return "print";
    }
    if (delta.attempt < call.attempt) return "skip";
    if (delta.attempt > call.attempt) {
      call.attempt = delta.attempt;
      call.indexes.clear();
      if (delta.index !== undefined) call.indexes.add(delta.index);
      return "retry";
    }
    if (delta.index === undefined) return "print";
    if (call.indexes.has(delta.index)) return "skip";
    call.indexes.add(delta.index);
    return "print";
  }

  /**
   * Forgets a run's calls; its later deltas (a late replay) are skipped.
   *
   * @param runId - the run that completed, failed or was cancelled.
   */
  endRun(runId: string): void {
    this.#endedRuns.add(runId);
    for (const [key, call] of this.#calls) if (call.runId === runId) this.#calls.delete(key);
  }
}

function indexSet(delta: RunDelta): Set<number> {
  return new Set(delta.index === undefined ? [] : [delta.index]);
}
