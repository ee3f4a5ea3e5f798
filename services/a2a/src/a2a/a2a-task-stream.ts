import type { StreamResponse, TaskState } from "@a2a-js/sdk";
import {
  isFinalRunTaskState,
  RunTaskTracker,
  TaskStreamCursors,
  type RunTaskRef,
  type RunTaskStatus,
  type TaskStreamCursor,
  type TrackedEvent,
} from "@troupe/client/tasks";
import { A2A_CURSOR_METADATA_KEY } from "./a2a-stream-cursor.js";
import { a2aTaskState, a2aTaskStatus, answerArtifact } from "./a2a-task-view.js";
import { AnswerStream } from "./answer-stream.js";
import { hideSettled, pendingKey, stopAt } from "./settled-input.js";

/** What {@link A2aTaskStream} streams and from where. */
export interface A2aTaskStreamOptions {
  /** The task. */
  readonly ref: RunTaskRef & { readonly taskId: string };
  /** `pendingKey` of the approval or question just settled (a reply's stream): not a stop. */
  readonly settled?: string | undefined;
  /** The state the client was last shown (the task the stream opened with); ignored with `after`. */
  readonly initial: TaskState;
  /** The cursor to resume after; none: every item from the session's first event. */
  readonly after?: TaskStreamCursor | undefined;
  /** The time of a status, ISO 8601; default the current time. */
  readonly now?: () => string;
}

/** What one event gives: the stream items to send (each with its cursor) and whether the stream ends. */
export interface A2aTaskStreamStep {
  readonly items: StreamResponse[];
  readonly end: boolean;
}

/** An item before it has its cursor. */
type Unplaced = (cursor: string) => StreamResponse;

/**
 * The A2A stream of one task, made from its session's events read from the
 * first (docs/decisions/0026, 0056). Pure apart from `now`: feed it every
 * event of `client.events(sessionId, { fromSequence: 1 })` in order; send the
 * items it returns; stop when it says `end`.
 *
 * Items: a `statusUpdate` each time the A2A state changes, an
 * `artifactUpdate` of the artifact `answer` per text delta of the task's run
 * ({@link AnswerStream}), and at the end the last chunk (`lastChunk: true`)
 * and the final state. It ends at a final state, or at an `input-required`
 * other than `settled`. Every item carries its cursor in
 * `metadata["troupe/cursor"]` (`TaskStreamCursors`).
 *
 * With `after` (a resumed stream), the events at or before the cursor only
 * rebuild the state (tracker, artifact, the state last shown): nothing is sent
 * for them, and an `input-required` among them is not a stop (the client's
 * stream went past it, or ended there and now waits for what follows). The
 * first item sent is the first the client has not got, even when the task
 * became final meanwhile; a task final at or before the cursor ends the
 * stream with nothing sent.
 */
export class A2aTaskStream {
  readonly #ref: RunTaskRef & { readonly taskId: string };
  readonly #tracker: RunTaskTracker;
  readonly #answer = new AnswerStream();
  readonly #cursors: TaskStreamCursors;
  readonly #now: () => string;
  #settled: string | undefined;
  #state: TaskState;
  #resuming: boolean;
  #status: RunTaskStatus;

  /** @param options - see {@link A2aTaskStreamOptions}. */
  constructor(options: A2aTaskStreamOptions) {
    this.#ref = options.ref;
    this.#tracker = new RunTaskTracker(options.ref);
    this.#cursors = new TaskStreamCursors(options.after);
    this.#now = options.now ?? (() => new Date().toISOString());
    this.#settled = options.settled;
    this.#state = options.initial;
    this.#resuming = options.after !== undefined;
    this.#status = this.#tracker.status();
  }

  /**
   * @param event - the next event of the session (durable, or a `run.delta` with `deltaSequence`).
   * @returns the items to send now, in order, and whether the stream ends after them.
   */
  read(event: TrackedEvent): A2aTaskStreamStep {
    if (this.#resuming && !this.#cursors.sent(event)) this.#resumeAt(this.#status);
    const status = this.#tracker.observe(event);
    this.#status = status;
    const { items, end } = this.#itemsOf(event, status);
    const placed = this.#cursors.place(event, items);
    return { items: placed.map(({ item, cursor }) => item(cursor)), end };
  }

  /**
   * The client's stream stood at `status`: the state it shows, and an open
   * input it already got (then a `working` follows once the input is settled;
   * a stream that hid it as `working` sends that `working` again).
   */
  #resumeAt(status: RunTaskStatus): void {
    this.#resuming = false;
    if (status.state === "input_required" && status.pending !== undefined) {
      this.#settled = pendingKey(status.pending);
    }
    this.#state = a2aTaskState(status);
  }

  #itemsOf(event: TrackedEvent, status: RunTaskStatus): { items: Unplaced[]; end: boolean } {
    if (event.deltaSequence !== undefined) {
      if (event.event.type !== "run.delta" || status.runId === undefined) return none;
      const delta = event.event.payload as Parameters<AnswerStream["add"]>[0];
      if (delta.runId !== status.runId) return none;
      const chunk = this.#answer.add(delta);
      if (chunk === undefined) return none;
      return { items: [this.#chunk(chunk.text, chunk.append, false)], end: false };
    }
    const stops =
      isFinalRunTaskState(status.state) || (!this.#resuming && stopAt(this.#settled)(status));
    if (stops) {
      const items: Unplaced[] = [];
      if (status.answer !== undefined) {
        const last = this.#answer.finish(status.answer);
        items.push(this.#chunk(last.text, last.append, true));
      }
      items.push(this.#statusUpdate(status));
      return { items, end: true };
    }
    const shown = hideSettled(status, this.#settled);
    const next = a2aTaskState(shown);
    if (next === this.#state) return none;
    this.#state = next;
    return { items: [this.#statusUpdate(shown)], end: false };
  }

  #chunk(text: string, append: boolean, lastChunk: boolean): Unplaced {
    const artifact = answerArtifact(text);
    const { taskId, sessionId } = this.#ref;
    return (cursor) => ({
      payload: {
        $case: "artifactUpdate",
        value: {
          taskId,
          contextId: sessionId,
          artifact,
          append,
          lastChunk,
          metadata: { [A2A_CURSOR_METADATA_KEY]: cursor },
        },
      },
    });
  }

  #statusUpdate(status: RunTaskStatus): Unplaced {
    const value = a2aTaskStatus(this.#ref, status, this.#now());
    const { taskId, sessionId } = this.#ref;
    return (cursor) => ({
      payload: {
        $case: "statusUpdate",
        value: {
          taskId,
          contextId: sessionId,
          status: value,
          metadata: { [A2A_CURSOR_METADATA_KEY]: cursor },
        },
      },
    });
  }
}

const none: { items: Unplaced[]; end: boolean } = { items: [], end: false };
