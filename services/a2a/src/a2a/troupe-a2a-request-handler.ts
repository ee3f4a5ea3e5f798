import { createHash, randomUUID } from "node:crypto";
import type {
  AgentCard,
  CancelTaskRequest,
  DeleteTaskPushNotificationConfigRequest,
  GetExtendedAgentCardRequest,
  GetTaskPushNotificationConfigRequest,
  GetTaskRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTaskPushNotificationConfigsResponse,
  ListTasksRequest,
  ListTasksResponse,
  Message,
  SendMessageRequest,
  StreamResponse,
  SubscribeToTaskRequest,
  Task,
  TaskPushNotificationConfig,
} from "@a2a-js/sdk";
import type { A2ARequestHandler, ServerCallContext } from "@a2a-js/sdk/server";
import {
  PushNotificationNotSupportedError,
  RequestMalformedError,
  TaskNotCancelableError,
  TaskNotFoundError,
  UnsupportedOperationError,
} from "@a2a-js/sdk/errors";
import type { TroupeClient } from "@troupe/client";
import { isValidActorId, TroupeError } from "@troupe/protocol";
import {
  cursorHoldsEnd,
  formatTaskStreamCursor,
  InvalidTaskIdError,
  parseRunTaskId,
  isFinalRunTaskState,
} from "@troupe/client/tasks";
import type { RunTasks, RunTaskRef, RunTaskStatus } from "@troupe/client/tasks";
import { approvalReply, a2aMessageText, questionReply } from "./a2a-message-input.js";
import { resumeCursorOf } from "./a2a-stream-cursor.js";
import { A2aTaskStream, type A2aTaskStreamOptions } from "./a2a-task-stream.js";
import { a2aTask, a2aTaskState } from "./a2a-task-view.js";
import { hideSettled, pendingKey, stopAt } from "./settled-input.js";

/** A task: its session, client message id and id. */
type TaskRef = RunTaskRef & { readonly taskId: string };

/** What {@link TroupeA2aRequestHandler} needs. */
export interface TroupeA2aRequestHandlerOptions {
  /** The served agent's card (see `a2aAgentCard`). */
  readonly card: AgentCard;
  /** Name of the agent new sessions run. */
  readonly agent: string;
  /** The deployment's client (events for streaming). */
  readonly client: TroupeClient;
  /** Run tasks over the same client. */
  readonly tasks: RunTasks;
  /** How long `CancelTask` waits for `run.cancelled` after the session's verdict, in ms; default 10 000. */
  readonly cancelWaitMs?: number;
}

/**
 * The A2A request handler of one Troupe agent (the SDK's
 * `A2ARequestHandler`, mounted with its JSON-RPC transport). It keeps no task
 * state: an A2A task is a Troupe run, its id `<sessionId>.<clientMessageId>`
 * (`runTaskId`), its `contextId` the session; `GetTask`, `SubscribeToTask` and
 * `CancelTask` read the session's stored events (`RunTasks`), so they answer
 * for any task after the serving process restarts (docs/decisions/0026).
 *
 * - `SendMessage` without `taskId` sends a user message to the session
 *   `contextId` (a new `a2a-<uuid>` session without one); the client message
 *   id comes from the A2A `messageId`, so a retried message starts no second
 *   run. It waits until the task is final or `input-required`, or returns the
 *   `submitted` task at once with `returnImmediately`.
 * - A message with the `taskId` of an `input-required` task settles what it
 *   asks: an approval (`approve`/`deny`, or `{ "approve": bool }`) or a
 *   question (the text); then it goes on as above.
 * - `SendStreamingMessage` / `SubscribeToTask` stream the task: the task, its
 *   state changes, the answer as chunks of the artifact `answer` from the
 *   run's text deltas, and the final state; the stream ends at a final state
 *   or at `input-required` ({@link A2aTaskStream}). Every update carries its
 *   cursor in `metadata["troupe/cursor"]`; a `SubscribeToTask` with that
 *   cursor in its `Last-Event-ID` header sends only what came after it
 *   (docs/decisions/0056).
 * - `CancelTask` sends `run.cancel` for the run and returns the `canceled` task.
 * - Push notifications, `ListTasks` and the extended card are not supported.
 */
export class TroupeA2aRequestHandler implements A2ARequestHandler {
  private readonly card: AgentCard;
  private readonly agent: string;
  private readonly client: TroupeClient;
  private readonly tasks: RunTasks;
  private readonly cancelWaitMs: number;

  /** @param options - see {@link TroupeA2aRequestHandlerOptions}. */
  constructor(options: TroupeA2aRequestHandlerOptions) {
    this.card = options.card;
    this.agent = options.agent;
    this.client = options.client;
    this.tasks = options.tasks;
    this.cancelWaitMs = options.cancelWaitMs ?? 10_000;
  }

  /** The agent's card, as built at start. */
  getAgentCard(): Promise<AgentCard> {
    return Promise.resolve(this.card);
  }

  /** @throws UnsupportedOperationError: there is no extended card. */
  getAuthenticatedExtendedAgentCard(_params: GetExtendedAgentCardRequest): Promise<AgentCard> {
    return Promise.reject(new UnsupportedOperationError("This agent has no extended agent card."));
  }

  /**
   * `SendMessage`: starts a task (or settles what its task asks) and waits until
   * it is final or asks again; with `returnImmediately`, returns it at once.
   *
   * @throws RequestMalformedError, ContentTypeNotSupportedError, TaskNotFoundError,
   *   UnsupportedOperationError (a final task) — see the folder README.
   */
  async sendMessage(params: SendMessageRequest): Promise<Message | Task> {
    return await a2aErrors(async () => {
      const { ref, settled, status } = await this.begin(params.message);
      if (params.configuration?.returnImmediately === true) {
        return this.task(ref, hideSettled(status, settled));
      }
      const final = await this.tasks.follow(ref.taskId, { until: stopAt(settled) });
      return this.task(ref, final);
    });
  }

  /** `SendStreamingMessage`: as {@link sendMessage}, streamed (the task, state changes, answer chunks, final state). */
  async *sendMessageStream(
    params: SendMessageRequest,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    const { ref, settled, status } = await a2aErrors(() => this.begin(params.message));
    yield { payload: { $case: "task", value: this.task(ref, hideSettled(status, settled)) } };
    yield* this.stream({ ref, settled, initial: a2aTaskState(hideSettled(status, settled)) });
  }

  /** `GetTask`: the task as the session's events give it now. @throws TaskNotFoundError for a malformed id. */
  async getTask(params: GetTaskRequest): Promise<Task> {
    return await a2aErrors(async () => {
      const ref = taskRef(params.id);
      return this.task(ref, await this.tasks.status(ref.taskId));
    });
  }

  /**
   * `CancelTask`: `run.cancel` for the task's run; waits up to `cancelWaitMs`
   * for `run.cancelled` and returns the task (still `working` if the end was
   * not stored by then).
   *
   * @throws TaskNotCancelableError for a completed or failed task; TaskNotFoundError.
   */
  async cancelTask(params: CancelTaskRequest): Promise<Task> {
    return await a2aErrors(async () => {
      const ref = taskRef(params.id);
      let status = await this.tasks.status(ref.taskId);
      if (status.state !== "cancelled" && isFinalRunTaskState(status.state)) {
        throw new TaskNotCancelableError(
          `Task ${ref.taskId} is ${status.state}; it cannot be canceled.`,
        );
      }
      if (status.state !== "cancelled")
        status = await this.tasks.cancel(ref.taskId, { reason: "canceled by the A2A client" });
      if (!isFinalRunTaskState(status.state)) {
        status = await this.tasks
          .follow(ref.taskId, { signal: AbortSignal.timeout(this.cancelWaitMs) })
          .catch(async () => await this.tasks.status(ref.taskId));
      }
      if (status.state !== "cancelled" && isFinalRunTaskState(status.state)) {
        throw new TaskNotCancelableError(
          `Task ${ref.taskId} ended ${status.state} before the cancellation.`,
        );
      }
      return this.task(ref, status);
    });
  }

  /**
   * `SubscribeToTask` (and 0.3 `tasks/resubscribe`): the task now, then
   * streamed as {@link sendMessageStream}. Without a cursor, from the
   * session's first event. With the `troupe/cursor` of an update the client
   * got in the `Last-Event-ID` header, only the updates after it, also for a
   * task that became final meanwhile (an empty stream after the task when
   * the client has them all).
   *
   * @param params - `id`: the task id.
   * @param context - the SDK's call context (the request headers).
   * @throws UnsupportedOperationError for a final task without a cursor;
   *   RequestMalformedError for a malformed `Last-Event-ID`, or one past the
   *   session's last event; TaskNotFoundError for a malformed task id.
   */
  async *resubscribe(
    params: SubscribeToTaskRequest,
    context?: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    const { ref, status, after } = await a2aErrors(async () => {
      const after = resumeCursorOf(context);
      const ref = taskRef(params.id);
      const status = await this.tasks.status(ref.taskId);
      if (after !== undefined && after.eventSequence > status.sequence) {
        throw new RequestMalformedError(
          `Last-Event-ID ${formatTaskStreamCursor(after)} is past the last event of task ${ref.taskId} (${status.sequence}): send a cursor this server sent.`,
        );
      }
      return { ref, status, after };
    });
    if (after === undefined && isFinalRunTaskState(status.state)) {
      throw new UnsupportedOperationError(
        `Task ${ref.taskId} is ${status.state}: there is nothing to subscribe to (GetTask gives its result, a Last-Event-ID cursor the updates after it).`,
      );
    }
    yield { payload: { $case: "task", value: this.task(ref, status) } };
    // A task that ended within the cursor has nothing left to send.
    if (cursorHoldsEnd(after, status)) return;
    yield* this.stream({ ref, initial: a2aTaskState(status), after });
  }

  /** @throws UnsupportedOperationError: there is no task index. */
  listTasks(_params: ListTasksRequest): Promise<ListTasksResponse> {
    return Promise.reject(
      new UnsupportedOperationError(
        "ListTasks is not supported: Troupe keeps no index of tasks (GetTask reads one task from its session).",
      ),
    );
  }

  /** @throws PushNotificationNotSupportedError. */
  createTaskPushNotificationConfig(
    _params: TaskPushNotificationConfig,
  ): Promise<TaskPushNotificationConfig> {
    return Promise.reject(new PushNotificationNotSupportedError());
  }

  /** @throws PushNotificationNotSupportedError. */
  getTaskPushNotificationConfig(
    _params: GetTaskPushNotificationConfigRequest,
  ): Promise<TaskPushNotificationConfig> {
    return Promise.reject(new PushNotificationNotSupportedError());
  }

  /** @throws PushNotificationNotSupportedError. */
  listTaskPushNotificationConfigs(
    _params: ListTaskPushNotificationConfigsRequest,
  ): Promise<ListTaskPushNotificationConfigsResponse> {
    return Promise.reject(new PushNotificationNotSupportedError());
  }

  /** @throws PushNotificationNotSupportedError. */
  deleteTaskPushNotificationConfig(
    _params: DeleteTaskPushNotificationConfigRequest,
  ): Promise<void> {
    return Promise.reject(new PushNotificationNotSupportedError());
  }

  /**
   * Starts a task for a new message, or settles what an `input-required`
   * task asks with the message that names it.
   */
  private async begin(
    message: Message | undefined,
  ): Promise<{ ref: TaskRef; settled?: string; status: RunTaskStatus }> {
    if (message === undefined) throw new RequestMalformedError("The request has no message.");
    if (message.taskId !== "" && message.taskId !== undefined) return await this.reply(message);
    const sessionId = message.contextId || `a2a-${randomUUID()}`;
    if (!isValidActorId(sessionId)) {
      throw new RequestMalformedError(
        `contextId ${JSON.stringify(sessionId)} cannot name a Troupe session: use 1 to 128 of A-Z, a-z, 0-9, "_" and "-".`,
      );
    }
    const started = await this.tasks.start({
      agent: this.agent,
      text: a2aMessageText(message),
      sessionId,
      clientMessageId: clientMessageIdOf(message.messageId),
    });
    return { ref: started, status: { state: "working", sequence: 0 } };
  }

  /** A message to an existing task: settles its approval or question. */
  private async reply(
    message: Message,
  ): Promise<{ ref: TaskRef; settled: string; status: RunTaskStatus }> {
    const ref = taskRef(message.taskId);
    if (message.contextId && message.contextId !== ref.sessionId) {
      throw new RequestMalformedError(
        `contextId ${JSON.stringify(message.contextId)} does not match task ${ref.taskId} (context ${ref.sessionId}).`,
      );
    }
    const status = await this.tasks.status(ref.taskId);
    if (isFinalRunTaskState(status.state)) {
      throw new UnsupportedOperationError(
        `Task ${ref.taskId} is ${status.state} and takes no more messages: send a new message in context ${ref.sessionId}.`,
      );
    }
    const pending = status.pending;
    if (status.state !== "input_required" || pending === undefined) {
      throw new RequestMalformedError(
        `Task ${ref.taskId} is working and asks nothing: send a new message (without taskId) in context ${ref.sessionId}.`,
      );
    }
    const outcome =
      pending.kind === "approval"
        ? await this.tasks.settle(ref.taskId, pending, approvalDecision(message))
        : await this.tasks.settle(ref.taskId, pending, {
            kind: "answer",
            text: questionReply(message),
          });
    if (outcome.verdict === "rejected") {
      throw new RequestMalformedError(
        `The session refused the reply (${outcome.code}): ${outcome.reason}`,
      );
    }
    return { ref, settled: pendingKey(pending), status };
  }

  /** Streams a task from the session's events (all of them, from the first) through {@link A2aTaskStream}. */
  private async *stream(
    options: A2aTaskStreamOptions,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    const view = new A2aTaskStream(options);
    const abort = new AbortController();
    try {
      for await (const event of this.client.events(options.ref.sessionId, {
        fromSequence: 1,
        signal: abort.signal,
      })) {
        const { items, end } = view.read(event);
        yield* items;
        if (end) return;
      }
    } finally {
      abort.abort();
    }
  }

  private task(ref: TaskRef, status: RunTaskStatus): Task {
    return a2aTask(ref, status, new Date().toISOString());
  }
}

/** The task a task id names; an id that names no Troupe run is `TaskNotFoundError`. */
function taskRef(taskId: string): TaskRef {
  return { ...parseRunTaskId(taskId), taskId };
}

/**
 * The client message id for an A2A `messageId`: the id itself when it is a
 * valid id (a UUID is), else the first 32 hex digits of its SHA-256; the same
 * A2A message always gives the same id, so a retry starts no second run.
 */
export function clientMessageIdOf(messageId: string): string {
  if (messageId === "") throw new RequestMalformedError("message.messageId is required.");
  if (isValidActorId(messageId)) return messageId;
  return `a2a-${createHash("sha256").update(messageId).digest("hex").slice(0, 32)}`;
}

function approvalDecision(
  message: Message,
): { kind: "approve"; note?: string } | { kind: "deny"; reason?: string } {
  const reply = approvalReply(message);
  if (reply.approve)
    return reply.note === undefined ? { kind: "approve" } : { kind: "approve", note: reply.note };
  return reply.reason === undefined ? { kind: "deny" } : { kind: "deny", reason: reply.reason };
}

/**
 * Runs `body`, turning Troupe's input errors into the A2A errors the SDK
 * maps to JSON-RPC codes: a task id that names no run → `TaskNotFoundError`,
 * an invalid id or payload (`invalid_address`, `decode_failed`) →
 * `RequestMalformedError`; anything else as it is.
 */
async function a2aErrors<T>(body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (error) {
    if (InvalidTaskIdError.isInstance(error)) throw new TaskNotFoundError(error.message);
    if (
      TroupeError.isInstance(error) &&
      (error.code === "invalid_address" || error.code === "decode_failed")
    ) {
      throw new RequestMalformedError(error.message);
    }
    throw error;
  }
}
