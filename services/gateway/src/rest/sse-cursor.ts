import type { SessionEvent } from "@troupe/client";

/**
 * Where a `GET /v1/sessions/:id/events` stream starts (docs/decisions/0028).
 *
 * Shape: `{ fromSequence: number (1+), skipTransients: number (0+) }`: read the
 * session from events-stream sequence `fromSequence`, and leave out the first
 * `skipTransients` transient events (`run.delta`, `tool.progress`) that come
 * before the first durable one (the client already has them).
 */
export interface SseCursor {
  readonly fromSequence: number;
  readonly skipTransients: number;
}

/**
 * The cursor of a request: its `Last-Event-ID` (the id of the last event the
 * client got, `<seq>` or `<seq>.<k>`) wins, else `from` (the first sequence to
 * send), else 1 (the whole stored history).
 *
 * Why this resumes without gap or duplicate: a durable event's id is its
 * events-stream sequence `<seq>`; `client.events(sessionId, { fromSequence:
 * seq + 1 })` yields the durable events after it and the transient events the
 * deltas stream stored after it (those with `sequence` = seq come first), so
 * `<seq>.<k>` resumes at seq + 1 and skips the k transients already sent.
 *
 * @param lastEventId - the `Last-Event-ID` header (already checked against `^\d+(\.\d+)?$`).
 * @param from - the `from` query parameter.
 */
export function sseCursor(lastEventId: string | undefined, from: number | undefined): SseCursor {
  if (lastEventId !== undefined && lastEventId !== "") {
    const [sequence = "0", k = "0"] = lastEventId.split(".");
    return { fromSequence: Number(sequence) + 1, skipTransients: Number(k) };
  }
  return { fromSequence: from ?? 1, skipTransients: 0 };
}

/**
 * Gives each event of a `client.events()` iteration its SSE id (docs/decisions/0028):
 * `<seq>` for a durable event (its events-stream sequence), `<seq>.<k>` for
 * the k-th (from 1) transient event read from the deltas stream after durable
 * event `<seq>` (`SessionEvent.sequence` of a delta is that of the durable
 * event before it). Drops the transients a resumed client already has
 * ({@link SseCursor.skipTransients}). Pure.
 */
export class SseEventIds {
  #base: number;
  #k = 0;
  #skip: number;

  /** @param cursor - where the iteration starts. */
  constructor(cursor: SseCursor) {
    this.#base = cursor.fromSequence - 1;
    this.#skip = cursor.skipTransients;
  }

  /**
   * The id of the next event, or `undefined` when the client already has it.
   *
   * @param tracked - the next event of the iteration.
   */
  next(tracked: SessionEvent): string | undefined {
    if (tracked.deltaSequence === undefined) {
      this.#base = tracked.sequence;
      this.#k = 0;
      this.#skip = 0;
      return String(tracked.sequence);
    }
    if (tracked.sequence !== this.#base) {
      this.#base = tracked.sequence;
      this.#k = 0;
      this.#skip = 0;
    }
    this.#k++;
    if (this.#k <= this.#skip) return undefined;
    return `${this.#base}.${this.#k}`;
  }
}

/**
 * One SSE event: `id:`, `event:` (the event type) and `data:` (the envelope as
 * JSON, one line), then a blank line.
 *
 * @param id - from {@link SseEventIds}.
 * @param tracked - the event.
 */
export function sseFrame(id: string, tracked: SessionEvent): string {
  return `id: ${id}\nevent: ${tracked.event.type}\ndata: ${JSON.stringify(tracked.event)}\n\n`;
}
