import type { SessionEvent } from "./session-event.js";

/** Deltas held back at most while the durable events catch up; beyond, the oldest go out. */
const MAX_HELD_DELTAS = 10_000;
/** Ended runs remembered (to drop their late deltas). */
const MAX_ENDED_RUNS = 10_000;

interface HeldDelta {
  readonly event: SessionEvent;
  readonly timeNs: number;
}

/**
 * Merges a session's durable events (events stream) with its transient
 * `run.delta` events (deltas stream), which two consumers deliver
 * independently (issue #11). Pure: feed it arrivals, yield what it returns.
 *
 * What the caller sees:
 * - durable events exactly in events-stream order, none held back;
 * - while the durable events are still catching up (replaying stored ones),
 *   deltas are held and released in stored-time order between them, so a
 *   client resuming after a sequence sees the missed run events first and then
 *   the deltas of the run still streaming;
 * - once caught up, deltas as they arrive;
 * - never a delta of a run after that run's `run.completed`, `run.failed` or
 *   `run.cancelled` (they carry the full text, or the partial text): late ones
 *   are dropped;
 * - a delta's `sequence` is the events-stream sequence of the last durable
 *   event yielded before it (0 if none), so resuming at `sequence + 1` loses
 *   nothing; its `deltaSequence` is its deltas-stream sequence.
 *
 * Deltas can repeat across resumes; tell them apart by `modelCallId`, `attempt`
 * and `index`.
 */
export class DeltaMerger {
  #caughtUp = false;
  #held: HeldDelta[] = [];
  readonly #ended = new Set<string>();
  #lastSequence = 0;
  #lastTimeNs = 0;

  /**
   * A durable event, admitted (not a duplicate), in events-stream order.
   *
   * @param event - the event; its `pending` 0 means the durable events caught up.
   * @param timeNs - its stored time, Unix ns.
   * @returns what to yield now, in order: held deltas stored before it, then it
   *   (then every held delta when it caught up).
   */
  event(event: SessionEvent, timeNs: number): SessionEvent[] {
    const out = this.#release((held) => held.timeNs < timeNs);
    out.push(event);
    this.#lastSequence = Math.max(this.#lastSequence, event.sequence);
    this.#lastTimeNs = Math.max(this.#lastTimeNs, timeNs);
    const ended = endedRun(event);
    if (ended !== undefined) this.#end(ended);
    if (event.pending === 0) out.push(...this.#catchUp());
    return out;
  }

  /**
   * A delta from the deltas stream, in deltas-stream order.
   *
   * @param event - the `run.delta` event.
   * @param timeNs - its stored time, Unix ns.
   * @returns what to yield now (it, or nothing while it is held or dropped).
   */
  delta(event: SessionEvent, timeNs: number): SessionEvent[] {
    if (this.#isEnded(event)) return [];
    if (this.#caughtUp || timeNs <= this.#lastTimeNs) return [this.#placed(event)];
    this.#held.push({ event, timeNs });
    if (this.#held.length <= MAX_HELD_DELTAS) return [];
    return this.#release((_, index) => index === 0);
  }

  /** The durable events consumer was (re)created: it may replay stored events first. */
  behind(): void {
    this.#caughtUp = false;
  }

  /**
   * The durable events consumer had nothing pending beyond `throughSequence`.
   *
   * @param throughSequence - last sequence it delivered.
   * @param admittedSequence - last sequence admitted or skipped so far.
   * @returns held deltas to yield when that is caught up.
   */
  caughtUpThrough(throughSequence: number, admittedSequence: number): SessionEvent[] {
    return admittedSequence >= throughSequence ? this.#catchUp() : [];
  }

  #catchUp(): SessionEvent[] {
    this.#caughtUp = true;
    return this.#release(() => true);
  }

  #release(take: (held: HeldDelta, index: number) => boolean): SessionEvent[] {
    const out: SessionEvent[] = [];
    const kept: HeldDelta[] = [];
    this.#held.forEach((held, index) => {
      if (!take(held, index)) kept.push(held);
      else if (!this.#isEnded(held.event)) out.push(this.#placed(held.event));
    });
    this.#held = kept;
    return out;
  }

  #placed(event: SessionEvent): SessionEvent {
    return { ...event, sequence: this.#lastSequence };
  }

  #isEnded(event: SessionEvent): boolean {
    const key = runKey(event);
    return key !== undefined && this.#ended.has(key);
  }

  #end(key: string): void {
    this.#ended.add(key);
    if (this.#ended.size > MAX_ENDED_RUNS) {
      const oldest = this.#ended.values().next().value;
      if (oldest !== undefined) this.#ended.delete(oldest);
    }
  }
}

function runKey(event: SessionEvent): string | undefined {
  const payload = event.event.payload as { runId?: unknown };
  return typeof payload.runId === "string" ? `${event.event.meta.actor} ${payload.runId}` : undefined;
}

function endedRun(event: SessionEvent): string | undefined {
  const type = event.event.type;
  if (type !== "run.completed" && type !== "run.failed" && type !== "run.cancelled") {
    return undefined;
  }
  return runKey(event);
}
