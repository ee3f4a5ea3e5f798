import type { SessionEvent } from "@troupe/client";
import {
  InvalidTaskStreamCursorError,
  parseTaskStreamCursor,
  TaskStreamCursors,
  type PlacedItem,
  type RunTaskStatus,
  type TaskStreamCursor,
} from "@troupe/client/tasks";

/**
 * Key of the cursor in the `_meta` of the `notifications/progress` that
 * stream a run's text, and in the `_meta` of a `tasks/result` request that
 * resumes after it (docs/decisions/0056). Its value is the cursor text,
 * `<eventSequence>.<deltaSequence>` (e.g. `"41.17"`).
 */
export const MCP_CURSOR_META_KEY = "dev.troupe/cursor";

/**
 * The cursor a request's `_meta` asks to resume after.
 *
 * @param meta - the request's `params._meta`, if any.
 * @returns the cursor, or `undefined` when `_meta["dev.troupe/cursor"]` is absent.
 * @throws {@link InvalidTaskStreamCursorError} when it is not a cursor text
 *   (the server answers `InvalidParams`, `-32602`).
 */
export function resumeCursorOfMeta(
  meta: Readonly<Record<string, unknown>> | undefined,
): TaskStreamCursor | undefined {
  const value = meta?.[MCP_CURSOR_META_KEY];
  if (value === undefined) return undefined;
  if (typeof value !== "string") {
    throw new InvalidTaskStreamCursorError(
      `_meta["${MCP_CURSOR_META_KEY}"] must be the cursor text of a progress notification, e.g. "41.17", not ${JSON.stringify(value)}.`,
      JSON.stringify(value) ?? "",
    );
  }
  return parseTaskStreamCursor(value);
}

/**
 * Which text deltas of a task's run go out as progress, with their cursors.
 * Pure: feed it every event a `RunTasks.follow` reports, with the status after
 * it. Sends each text delta of the run once per request: after the request's
 * cursor, and after the last one it sent when it reads the session again
 * (a follow after an elicitation starts from the first event).
 */
export class AnswerProgress {
  #after: TaskStreamCursor | undefined;
  #cursors: TaskStreamCursors;

  /** @param after - the cursor to resume after (a `tasks/result` with `_meta["dev.troupe/cursor"]`); none: from the first delta. */
  constructor(after?: TaskStreamCursor) {
    this.#after = after;
    this.#cursors = new TaskStreamCursors(after);
  }

  /** The session is read again from its first event: only deltas after the last one sent go out. */
  restart(): void {
    this.#cursors = new TaskStreamCursors(this.#after);
  }

  /**
   * @param event - the next event read.
   * @param status - the task's status after it.
   * @returns the text to send (none, or the delta's text) with its cursor.
   */
  read(event: SessionEvent, status: RunTaskStatus): PlacedItem<string>[] {
    const text = textOf(event, status);
    const placed = this.#cursors.place(event, text === undefined ? [] : [text]);
    const last = placed.at(-1);
    if (last !== undefined) this.#after = parseTaskStreamCursor(last.cursor);
    return placed;
  }
}

/** The text of a text delta of the task's run, read after a durable event of it. */
function textOf({ event, deltaSequence }: SessionEvent, status: RunTaskStatus): string | undefined {
  if (deltaSequence === undefined || event.type !== "run.delta") return undefined;
  const payload = event.payload;
  if (payload.kind !== "text" || payload.runId !== status.runId || status.sequence === 0) {
    return undefined;
  }
  return payload.text;
}
