import type { SessionEvent } from "./session-event.js";

/** Runs remembered, ended ones (to drop their late deltas) and known ones. */
const MAX_ENDED_RUNS = 10_000;
/** Items held back at most on one side while the other catches up; beyond, the oldest go out. */
const MAX_HELD = 10_000;

/** Which stream an item comes from. */
export type MergeSide = "events" | "deltas";

interface Held {
  readonly event: SessionEvent;
  readonly timeNs: number;
}

/**
 * Merges a session's durable events (events stream) with its transient
 * `run.delta` events (deltas stream), which two consumers deliver
 * independently (docs/decisions/0014). Pure: feed it what the consumers deliver, yield
 * what it returns.
 *
 * What the caller sees:
 * - durable events exactly in events-stream order, deltas in deltas-stream order;
 * - while either consumer is still replaying stored messages, the two are
 *   interleaved by stored time (the server's clock), as if they were one
 *   stream: a client reading from before a run sees its deltas between its
 *   `run.started` and its end event;
 * - once both are caught up, each item as it arrives;
 * - never a delta of a run after that run's `run.completed`, `run.failed` or
 *   `run.cancelled` has been yielded (they carry the full text, or the partial
 *   text): late deltas are dropped;
 * - a delta's `sequence` is the events-stream sequence of the last durable
 *   event yielded before it (`fromSequence - 1` if none), so resuming at
 *   `sequence + 1` loses nothing; its `deltaSequence` is its deltas-stream
 *   sequence.
 *
 * Deltas can repeat across resumes; tell them apart by `modelCallId`, `attempt`
 * and `index`.
 */
export class DeltaMerger {
  readonly #held: Record<MergeSide, Held[]> = { events: [], deltas: [] };
  readonly #caughtUp: Record<MergeSide, boolean> = { events: false, deltas: false };
  readonly #ended = new Set<string>();
  /** Runs a durable event of which went out, or whose first delta was asked about. */
  readonly #known = new Set<string>();
  #lastSequence: number;

  /**
   * @param options - `afterSequence`: the events-stream sequence the iteration
   *   starts after (`fromSequence - 1`; default 0), a delta's `sequence` until
   *   a durable event is yielded.
   */
  constructor(options: { afterSequence?: number } = {}) {
    this.#lastSequence = options.afterSequence ?? 0;
  }

  /**
   * A durable event, admitted (not a duplicate), in events-stream order.
   *
   * @param event - the event.
   * @param timeNs - its stored time, Unix ns.
   * @param caughtUp - whether its consumer has nothing more to deliver after
   *   it; default: its `pending` is 0.
   * @returns what to yield now, in order.
   */
  event(event: SessionEvent, timeNs: number, caughtUp = event.pending === 0): SessionEvent[] {
    return this.#add("events", event, timeNs, caughtUp);
  }

  /**
   * A `run.delta` from the deltas stream, in deltas-stream order.
   *
   * @param event - the delta.
   * @param timeNs - its stored time, Unix ns.
   * @param caughtUp - whether its consumer has nothing more to deliver after
   *   it; default: its `pending` is 0.
   * @returns what to yield now, in order.
   */
  delta(event: SessionEvent, timeNs: number, caughtUp = event.pending === 0): SessionEvent[] {
    return this.#add("deltas", event, timeNs, caughtUp);
  }

  /**
   * A consumer was (re)created: it may replay stored messages first.
   *
   * @param side - which one.
   */
  behind(side: MergeSide): void {
    this.#caughtUp[side] = false;
  }

  /**
   * Whether `delta` is the first one asked about of a run no durable event of
   * which went out yet (the caller then makes sure the events side has
   * delivered what was stored before it, e.g. the run's `run.started`). True
   * once per run.
   *
   * @param delta - a `run.delta` (or other transient event with a `runId`).
   */
  firstOfUnknownRun(delta: SessionEvent): boolean {
    const key = runKey(delta);
    if (key === undefined || this.#known.has(key)) return false;
    remember(this.#known, key);
    return true;
  }

  /**
   * Whether a side counts as caught up (its items go out as they arrive).
   *
   * @param side - which one.
   */
  isCaughtUp(side: MergeSide): boolean {
    return this.#caughtUp[side];
  }

  /**
   * A consumer has nothing more to deliver now (it reported nothing pending, or
   * its stream cannot be read: then the other side must not wait for it).
   *
   * @param side - which one.
   * @returns what to yield now, in order.
   */
  caughtUp(side: MergeSide): SessionEvent[] {
    this.#caughtUp[side] = true;
    return this.#drain();
  }

  #add(side: MergeSide, event: SessionEvent, timeNs: number, caughtUp: boolean): SessionEvent[] {
    this.#held[side].push({ event, timeNs });
    if (caughtUp) this.#caughtUp[side] = true;
    const out = this.#drain();
    const held = this.#held[side];
    while (held.length > MAX_HELD) this.#emit(side, held.shift()!, out);
    return out;
  }

  #drain(): SessionEvent[] {
    const out: SessionEvent[] = [];
    const events = this.#held.events;
    const deltas = this.#held.deltas;
    for (;;) {
      const nextEvent = events[0];
      const nextDelta = deltas[0];
      if (nextEvent !== undefined && nextDelta !== undefined) {
        if (nextDelta.timeNs < nextEvent.timeNs) this.#emit("deltas", deltas.shift()!, out);
        else this.#emit("events", events.shift()!, out);
      } else if (nextEvent !== undefined && this.#caughtUp.deltas) {
        this.#emit("events", events.shift()!, out);
      } else if (nextDelta !== undefined && this.#caughtUp.events) {
        this.#emit("deltas", deltas.shift()!, out);
      } else {
        return out;
      }
    }
  }

  #emit(side: MergeSide, held: Held, out: SessionEvent[]): void {
    const { event } = held;
    if (side === "deltas") {
      if (!this.#isEnded(event)) out.push({ ...event, sequence: this.#lastSequence });
      return;
    }
    out.push(event);
    this.#lastSequence = Math.max(this.#lastSequence, event.sequence);
    const key = runKey(event);
    if (key !== undefined && !this.#known.has(key)) remember(this.#known, key);
    const ended = endedRun(event);
    if (ended !== undefined) remember(this.#ended, ended);
  }

  #isEnded(event: SessionEvent): boolean {
    const key = runKey(event);
    return key !== undefined && this.#ended.has(key);
  }
}

/** Adds `key` to a set of run keys, forgetting the oldest beyond {@link MAX_ENDED_RUNS}. */
function remember(keys: Set<string>, key: string): void {
  keys.add(key);
  if (keys.size > MAX_ENDED_RUNS) {
    const oldest = keys.values().next().value;
    if (oldest !== undefined) keys.delete(oldest);
  }
}

function runKey(event: SessionEvent): string | undefined {
  const payload = event.event.payload as { runId?: unknown };
  return typeof payload.runId === "string"
    ? `${event.event.meta.actor} ${payload.runId}`
    : undefined;
}

function endedRun(event: SessionEvent): string | undefined {
  const type = event.event.type;
  if (type !== "run.completed" && type !== "run.failed" && type !== "run.cancelled") {
    return undefined;
  }
  return runKey(event);
}
