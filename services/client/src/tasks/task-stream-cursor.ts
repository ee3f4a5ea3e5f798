import { TroupeError } from "@troupe/protocol";
import type { RunTaskStatus, TrackedEvent } from "./run-task-status.js";

/**
 * How far a task stream (A2A `SendStreamingMessage` / `SubscribeToTask`, MCP
 * progress) had read its session when it sent an item (docs/decisions/0056).
 *
 * Shape: `{ eventSequence: number (0+), deltaSequence: number (0+), part?: number (1+) }`:
 * - `eventSequence`: events-stream sequence of the last durable event read (0: none);
 * - `deltaSequence`: deltas-stream sequence of the last `run.delta` read (0: none);
 * - `part`: set when one durable event gave several items and more of them
 *   follow: the item is the `part`-th of that event (an answer's last chunk
 *   and the final state both come from `run.completed`).
 *
 * Written `<eventSequence>.<deltaSequence>` or
 * `<eventSequence>.<deltaSequence>.<part>` ({@link formatTaskStreamCursor}),
 * e.g. `41.17`.
 */
export interface TaskStreamCursor {
  readonly eventSequence: number;
  readonly deltaSequence: number;
  readonly part?: number;
}

/** The cursor before the first event: resuming after it sends everything. */
export const TASK_STREAM_START: TaskStreamCursor = { eventSequence: 0, deltaSequence: 0 };

/** A cursor's text: two or three decimal integers joined by `.`, no sign, no leading zeros. */
const CURSOR_PATTERN = /^(0|[1-9]\d*)\.(0|[1-9]\d*)(?:\.([1-9]\d*))?$/;

/**
 * The text of a cursor, as task streams send it.
 *
 * @param cursor - see {@link TaskStreamCursor}.
 * @returns `<eventSequence>.<deltaSequence>` or `<eventSequence>.<deltaSequence>.<part>`, e.g. `41.17`.
 * @example
 * formatTaskStreamCursor({ eventSequence: 41, deltaSequence: 17 }); // "41.17"
 */
export function formatTaskStreamCursor(cursor: TaskStreamCursor): string {
  const pair = `${cursor.eventSequence}.${cursor.deltaSequence}`;
  return cursor.part === undefined ? pair : `${pair}.${cursor.part}`;
}

/**
 * Reads a cursor a client sent back (the inverse of {@link formatTaskStreamCursor}).
 *
 * @param text - e.g. `41.17` or `41.17.1`; each number a safe integer.
 * @returns the cursor.
 * @throws {@link InvalidTaskStreamCursorError} for any other text (signs,
 *   leading zeros, spaces, a part of 0, numbers above 2^53 - 1).
 */
export function parseTaskStreamCursor(text: string): TaskStreamCursor {
  const match = CURSOR_PATTERN.exec(text);
  const numbers = match?.slice(1).map((group) => (group === undefined ? undefined : Number(group)));
  if (numbers === undefined || numbers.some((n) => n !== undefined && !Number.isSafeInteger(n))) {
    throw new InvalidTaskStreamCursorError(
      `${JSON.stringify(text.slice(0, 64))} is not a task stream cursor: send back the "troupe/cursor" of the last item you got, <eventSequence>.<deltaSequence> (e.g. 41.17), or 0.0 for the whole stream.`,
      text,
    );
  }
  const [eventSequence = 0, deltaSequence = 0, part] = numbers;
  return part === undefined
    ? { eventSequence, deltaSequence }
    : { eventSequence, deltaSequence, part };
}

/**
 * Orders two cursors as the items that carry them were sent: by
 * `eventSequence`, then `deltaSequence`, then `part` (a cursor without `part`
 * after every part of its event).
 *
 * @returns a negative number when `a` comes first, 0 when equal, positive when `b` comes first.
 */
export function compareTaskStreamCursors(a: TaskStreamCursor, b: TaskStreamCursor): number {
  return (
    a.eventSequence - b.eventSequence ||
    a.deltaSequence - b.deltaSequence ||
    (a.part ?? Number.MAX_SAFE_INTEGER) - (b.part ?? Number.MAX_SAFE_INTEGER)
  );
}

/**
 * A cursor that is not one a task stream sent: code `invalid_options`, not
 * retryable, `details.cursor` the refused text.
 */
export class InvalidTaskStreamCursorError extends TroupeError {
  /** The refused text. */
  readonly cursor: string;

  /**
   * @param message - what is wrong and what is allowed.
   * @param cursor - the refused text.
   */
  constructor(message: string, cursor: string) {
    super("invalid_options", message, { retryable: false, details: { cursor } });
    this.name = "InvalidTaskStreamCursorError";
    this.cursor = cursor;
  }

  /**
   * Whether `value` is an {@link InvalidTaskStreamCursorError} (by name, from any copy of the package).
   *
   * @param value - anything, typically a caught exception.
   */
  static override isInstance(value: unknown): value is InvalidTaskStreamCursorError {
    return TroupeError.isInstance(value) && value.name === "InvalidTaskStreamCursorError";
  }
}

/** One item of a task stream with its cursor text. */
export interface PlacedItem<T> {
  readonly item: T;
  readonly cursor: string;
}

/**
 * Gives a task stream's items their cursors and, when the stream resumes after
 * a cursor, leaves out the items the client already got. Pure: feed it every
 * event the stream reads (`client.events(sessionId, { fromSequence: 1 })`), in
 * order, with the items the stream makes of it.
 *
 * Why every item reaches the client once across a disconnect: the durable
 * events come in events-stream order and the deltas in deltas-stream order
 * (docs/decisions/0014), so when an item goes out the stream has read exactly
 * the durable events up to its `eventSequence` and the deltas up to its
 * `deltaSequence`. A stream resuming after that cursor reads the session from
 * its first event again (so its state is rebuilt) and sends only what durable
 * events after `eventSequence` and deltas after `deltaSequence` give (and, for
 * a cursor with `part`, the items of its event after that part).
 */
export class TaskStreamCursors {
  readonly #after: TaskStreamCursor | undefined;
  #eventSequence = 0;
  #deltaSequence = 0;

  /** @param after - the cursor to resume after; none: every item is new. */
  constructor(after?: TaskStreamCursor) {
    this.#after = after;
  }

  /**
   * Whether the client already got every item `event` gives (it lies at or
   * before the resume cursor). Always false without a resume cursor.
   *
   * @param event - the next event read (not yet passed to {@link TaskStreamCursors.place}).
   */
  sent(event: TrackedEvent): boolean {
    const after = this.#after;
    if (after === undefined) return false;
    if (event.deltaSequence !== undefined) return event.deltaSequence <= after.deltaSequence;
    if (event.sequence < after.eventSequence) return true;
    return event.sequence === after.eventSequence && after.part === undefined;
  }

  /**
   * Moves past `event` and stamps the items it gives.
   *
   * @param event - the next event read, in the order the client's iteration yields them.
   * @param items - what the stream makes of it, in order (a delta gives at most one).
   * @returns the items the client has not got yet, each with its cursor text.
   * @throws RangeError for a delta with more than one item (its cursor could not tell them apart).
   */
  place<T>(event: TrackedEvent, items: readonly T[]): PlacedItem<T>[] {
    const isDelta = event.deltaSequence !== undefined;
    if (isDelta) {
      if (items.length > 1) throw new RangeError("A delta gives at most one task stream item.");
      this.#deltaSequence = Math.max(this.#deltaSequence, event.deltaSequence);
    } else {
      this.#eventSequence = Math.max(this.#eventSequence, event.sequence);
    }
    if (items.length === 0 || this.sent(event)) return [];
    const skip =
      !isDelta && this.#after?.part !== undefined && this.#after.eventSequence === event.sequence
        ? this.#after.part
        : 0;
    const placed: PlacedItem<T>[] = [];
    items.forEach((item, index) => {
      if (index < skip) return;
      const part = index < items.length - 1 ? { part: index + 1 } : {};
      const cursor = formatTaskStreamCursor({
        eventSequence: this.#eventSequence,
        deltaSequence: this.#deltaSequence,
        ...part,
      });
      placed.push({ item, cursor });
    });
    return placed;
  }
}

/**
 * Whether a resume cursor already holds the task's end: the event that ended
 * it is at or before the cursor's event sequence. A stream resumed after such
 * a cursor has nothing left to send — and must not send the run's deltas
 * again, which a cursor this server never sent (an event sequence past the
 * end with a low delta sequence) would otherwise let through.
 *
 * @param after - the client's cursor; undefined: a stream from the start.
 * @param status - the task's status now (`endedSequence` set once it is final).
 */
export function cursorHoldsEnd(
  after: TaskStreamCursor | undefined,
  status: RunTaskStatus,
): boolean {
  return (
    after !== undefined &&
    status.endedSequence !== undefined &&
    status.endedSequence <= after.eventSequence
  );
}
