import { randomUUID } from "node:crypto";
import type { CommandOutcome } from "../command-outcome.js";
import type { SessionEvent } from "../session-event.js";
import type { TroupeClient } from "../troupe-client.js";
import { TroupeError } from "@troupe/protocol";
import { InvalidTaskIdError, parseRunTaskId, runTaskId, type RunTaskRef } from "./run-task-id.js";
import {
  isFinalRunTaskState,
  RunTaskTracker,
  type PendingInput,
  type RunTaskStatus,
} from "./run-task-status.js";

/** What {@link RunTasks.start} sends: an agent's name, the text, and optionally where and under which id. */
export interface StartRunTaskInput {
  /** The agent the session runs (the session's first message picks it). */
  readonly agent: string;
  /** The user's message. */
  readonly text: string;
  /** Session to send to; default a new one, `<sessionPrefix>-<uuid>`. */
  readonly sessionId?: string;
  /** Idempotency key of the message (1 to 128 of `[A-Za-z0-9_-]`); default a UUID. */
  readonly clientMessageId?: string;
}

/** A started run task: its session, client message id and task id. */
export type StartedRunTask = RunTaskRef & { readonly taskId: string };

/** How a human settles a {@link PendingInput}. */
export type PendingDecision =
  | { readonly kind: "approve"; readonly note?: string }
  | { readonly kind: "deny"; readonly reason?: string }
  | { readonly kind: "answer"; readonly text: string };

/** Options of {@link RunTasks.follow}. */
export interface FollowRunTaskOptions {
  /** Ends the wait: `follow` then rejects with `signal.reason`. */
  readonly signal?: AbortSignal;
  /** Every event read (durable and deltas, the session's whole history first), with the status after it. */
  readonly onEvent?: (event: SessionEvent, status: RunTaskStatus) => void;
  /**
   * Stop once this holds for the status after a durable event read after the
   * stored history (earlier states do not count); a final state always stops.
   * Default: only a final state.
   */
  readonly until?: (status: RunTaskStatus) => boolean;
}

/** Options of {@link RunTasks}. */
export interface RunTasksOptions {
  /** Prefix of new session ids (`<prefix>-<uuid>`); default `"task"`. */
  readonly sessionPrefix?: string;
  /** How long {@link RunTasks.cancel} and {@link RunTasks.settle} wait for the session's verdict, in ms; default 10 000. */
  readonly verdictTimeoutMs?: number;
  /**
   * How long {@link RunTasks.follow} (and so `cancel`) waits for the task's
   * message to reach its session before it answers "unknown task", in ms;
   * default 10 000.
   */
  readonly admissionTimeoutMs?: number;
}

/**
 * Protocol tasks (MCP tasks, A2A tasks) mapped to Troupe runs, with no state of
 * its own (docs/decisions/0025): a task id encodes the session and
 * the client message id of the message that started the run
 * ({@link runTaskId}); its status is read from the session's stored events
 * ({@link RunTaskTracker}); cancelling sends `run.cancel`, settling an approval
 * or question sends `tool.approve` / `tool.deny` / `question.answer`. So any
 * process, a restarted one too, answers for any task.
 *
 * @example
 * ```ts
 * const tasks = new RunTasks(client, { sessionPrefix: "mcp" });
 * const { taskId } = await tasks.start({ agent: "assistant", text: "hello" });
 * const final = await tasks.follow(taskId); // { state: "completed", answer: "…", runId, sequence }
 * ```
 */
export class RunTasks {
  private readonly sessionPrefix: string;
  private readonly verdictTimeoutMs: number;
  private readonly admissionTimeoutMs: number;

  /**
   * @param client - a connected client of the deployment (not closed by this class).
   * @param options - see {@link RunTasksOptions}.
   */
  constructor(
    private readonly client: TroupeClient,
    options: RunTasksOptions = {},
  ) {
    this.sessionPrefix = options.sessionPrefix ?? "task";
    this.verdictTimeoutMs = options.verdictTimeoutMs ?? 10_000;
    this.admissionTimeoutMs = options.admissionTimeoutMs ?? 10_000;
  }

  /**
   * Sends the message that starts a run. Idempotent on `clientMessageId`: the
   * same id again starts no second run (JetStream deduplication, then the
   * session's `message.duplicate`) and gives the same task id.
   *
   * @param input - see {@link StartRunTaskInput}.
   * @returns once JetStream stored the message: session, client message id and task id.
   * @throws `InvalidAddressError` for an invalid session or client message id,
   *   `DecodeError` for a blank text; the client's errors when NATS does not answer.
   */
  async start(input: StartRunTaskInput): Promise<StartedRunTask> {
    const sessionId = input.sessionId ?? `${this.sessionPrefix}-${randomUUID()}`;
    const receipt = await this.client.send(sessionId, {
      text: input.text,
      agent: input.agent,
      ...(input.clientMessageId === undefined ? {} : { clientMessageId: input.clientMessageId }),
    });
    const ref = { sessionId, clientMessageId: receipt.clientMessageId };
    return { ...ref, taskId: runTaskId(ref) };
  }

  /**
   * The task's status now, from the session's stored events (read from the
   * first; nothing kept in memory). A task whose session has no events yet is
   * `working` (its message may still wait in the inbox).
   *
   * @param taskId - from {@link RunTasks.start} or {@link runTaskId}.
   * @returns see {@link RunTaskStatus}.
   * @throws `InvalidTaskIdError` for an id that is not a Troupe task id.
   * @throws `StreamsMissingError` when no host created the deployment's streams.
   */
  async status(taskId: string): Promise<RunTaskStatus> {
    const ref = parseRunTaskId(taskId);
    const tracker = new RunTaskTracker(ref);
    const stored = await this.client.storedEventCount(ref.sessionId);
    if (stored === 0) return tracker.status();
    const abort = new AbortController();
    let read = 0;
    for await (const event of this.client.events(ref.sessionId, {
      fromSequence: 1,
      signal: abort.signal,
    })) {
      tracker.observe(event);
      if (event.deltaSequence !== undefined) continue;
      read += 1;
      if (event.pending === 0 || read >= stored) break;
    }
    return tracker.status();
  }

  /**
   * Follows the task until its state is final (or `until` holds for a state
   * it is in after the stored history was read), reporting
   * every event of the session (from its first) with the status after it:
   * text deltas of the run (`run.delta` with `payload.runId === status.runId`)
   * for progress and streaming.
   *
   * @param taskId - the task.
   * @param options - see {@link FollowRunTaskOptions}.
   * @returns the status that ended the wait.
   * @throws `InvalidTaskIdError` for a malformed id, or when no message of the
   *   task reached its session within `admissionTimeoutMs` (an unknown task);
   *   `signal.reason` when aborted; `ClientClosedError` when the client closes.
   */
  async follow(taskId: string, options: FollowRunTaskOptions = {}): Promise<RunTaskStatus> {
    const ref = parseRunTaskId(taskId);
    const tracker = new RunTaskTracker(ref);
    const until = options.until ?? ((status) => isFinalRunTaskState(status.state));
    options.signal?.throwIfAborted();
    const abort = new AbortController();
    const onAbort = () => abort.abort(options.signal?.reason);
    options.signal?.addEventListener("abort", onAbort, { once: true });
    // A task whose message never reaches its session (a wrong or stale id)
    // would be followed forever: give up after the admission timeout.
    const unknown = new InvalidTaskIdError(
      `Unknown task "${taskId}": no message of it reached session "${ref.sessionId}" within ` +
        `${this.admissionTimeoutMs} ms (a wrong id, or no host is processing the session).`,
      taskId,
    );
    const admission = setTimeout(() => {
      if (tracker.status().createdAtMs === undefined) abort.abort(unknown);
    }, this.admissionTimeoutMs);
    try {
      // `until` is asked only once the stored history is read (a durable event
      // with nothing pending): a state the history passed through does not count.
      let caughtUp = false;
      for await (const event of this.client.events(ref.sessionId, {
        fromSequence: 1,
        signal: abort.signal,
      })) {
        const status = tracker.observe(event);
        if (status.createdAtMs !== undefined) clearTimeout(admission);
        options.onEvent?.(event, status);
        if (event.deltaSequence !== undefined) continue;
        caughtUp ||= event.pending === 0;
        if (isFinalRunTaskState(status.state) || (caughtUp && until(status))) return status;
      }
    } finally {
      clearTimeout(admission);
      options.signal?.removeEventListener("abort", onAbort);
    }
    options.signal?.throwIfAborted();
    if (abort.signal.reason === unknown) throw unknown;
    return tracker.status();
  }

  /**
   * Cancels the task's run (`run.cancel` with its run id; the run ends
   * `cancelled`). A task not yet started is followed until its run id is known
   * first; a final task is left as it is.
   *
   * @param taskId - the task.
   * @param options - `reason`, kept on `run.cancelled`; `signal`.
   * @returns the status once the run ended (`cancelled`, or how it ended first);
   *   when the session refused the cancel (nothing to act on) or the end is not
   *   stored within the verdict timeout, the status as it is then.
   * @throws `InvalidTaskIdError`; the client's errors (`VerdictTimeoutError` when no host answered).
   */
  async cancel(
    taskId: string,
    options: { readonly reason?: string; readonly signal?: AbortSignal } = {},
  ): Promise<RunTaskStatus> {
    const { sessionId } = parseRunTaskId(taskId);
    let status = await this.status(taskId);
    if (status.runId === undefined && !isFinalRunTaskState(status.state)) {
      status = await this.follow(taskId, {
        until: (next) => next.runId !== undefined || isFinalRunTaskState(next.state),
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      });
    }
    const runId = status.runId;
    if (isFinalRunTaskState(status.state) || runId === undefined) return status;
    const reason = options.reason === undefined ? {} : { reason: options.reason };
    const verdict = await this.client.awaitVerdict(
      sessionId,
      () => this.client.cancel(sessionId, { runId, ...reason }),
      { timeoutMs: this.verdictTimeoutMs },
    );
    if (verdict.verdict !== "applied") return await this.status(taskId);
    // The verdict comes before the run's end event: wait for that (bounded).
    const deadline = AbortSignal.timeout(this.verdictTimeoutMs);
    const signal =
      options.signal === undefined ? deadline : AbortSignal.any([deadline, options.signal]);
    try {
      return await this.follow(taskId, { signal });
    } catch (error) {
      if (!deadline.aborted) throw error;
      return await this.status(taskId);
    }
  }

  /**
   * Settles an approval or a question of the task's run: `tool.approve` /
   * `tool.deny` for an approval, `question.answer` for a question; through the
   * task's session with `subagentSessionId` when a subagent owns it.
   *
   * @param taskId - the task.
   * @param pending - the open approval or question (`status.pending`).
   * @param decision - approve (optional note), deny (optional reason), or answer (text).
   * @returns the session's verdict (`applied`, `already_settled`, …).
   * @throws `InvalidTaskIdError`; `TroupeError` (`invalid_options`) when the
   *   decision does not fit the pending kind (an answer to an approval);
   *   `VerdictTimeoutError` when no host answered.
   */
  async settle(
    taskId: string,
    pending: PendingInput,
    decision: PendingDecision,
  ): Promise<CommandOutcome> {
    const { sessionId } = parseRunTaskId(taskId);
    const via = pending.sessionId === sessionId ? {} : { subagentSessionId: pending.sessionId };
    const send = () => {
      if (pending.kind === "approval" && decision.kind === "approve") {
        const note = decision.note === undefined ? {} : { note: decision.note };
        return this.client.approve(sessionId, pending.toolCallId, { ...note, ...via });
      }
      if (pending.kind === "approval" && decision.kind === "deny") {
        const reason = decision.reason === undefined ? {} : { reason: decision.reason };
        return this.client.deny(sessionId, pending.toolCallId, { ...reason, ...via });
      }
      if (pending.kind === "question" && decision.kind === "answer") {
        return this.client.answer(sessionId, pending.questionId, decision.text, via);
      }
      throw new TroupeError(
        "invalid_options",
        `A ${pending.kind} cannot be settled with "${decision.kind}": approvals take approve or deny, questions an answer.`,
      );
    };
    return await this.client.awaitVerdict(sessionId, send, { timeoutMs: this.verdictTimeoutMs });
  }
}
