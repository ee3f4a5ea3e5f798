import { Role, TaskState, type Artifact, type Message, type Part, type Task } from "@a2a-js/sdk";
import type { RunTaskRef, PendingInput, RunTaskStatus } from "@troupe/client/tasks";

/** Id of the one artifact of a task: the run's answer text. */
export const ANSWER_ARTIFACT_ID = "answer";

/** A text part in the SDK's v1.0 shape. */
export function textPart(text: string): Part {
  return {
    content: { $case: "text", value: text },
    metadata: {},
    filename: "",
    mediaType: "text/plain",
  };
}

/** A data part (JSON) in the SDK's v1.0 shape. */
export function dataPart(value: unknown): Part {
  return {
    content: { $case: "data", value },
    metadata: {},
    filename: "",
    mediaType: "application/json",
  };
}

/** An agent message of a task, its id derived from the task id and `suffix` (the same in any process). */
export function agentMessage(
  ref: RunTaskRef & { taskId: string },
  suffix: string,
  parts: Part[],
): Message {
  return {
    messageId: `${ref.taskId}.${suffix}`,
    contextId: ref.sessionId,
    taskId: ref.taskId,
    role: Role.ROLE_AGENT,
    parts,
    metadata: {},
    extensions: [],
    referenceTaskIds: [],
  };
}

/** The answer artifact holding `text`. */
export function answerArtifact(text: string): Artifact {
  return {
    artifactId: ANSWER_ARTIFACT_ID,
    name: "answer",
    description: "The run's answer.",
    parts: [textPart(text)],
    metadata: {},
    extensions: [],
  };
}

/**
 * The A2A task state of a run task's status (docs/decisions/0026):
 *
 * | Troupe (`RunTaskStatus`)           | A2A `TaskState`             |
 * | ---------------------------------- | --------------------------- |
 * | `working`, no run yet              | `TASK_STATE_SUBMITTED`      |
 * | `working`, run started             | `TASK_STATE_WORKING`        |
 * | `input_required` (approval/question) | `TASK_STATE_INPUT_REQUIRED` |
 * | `completed`                        | `TASK_STATE_COMPLETED`      |
 * | `failed` (run failed, or message rejected) | `TASK_STATE_FAILED` |
 * | `cancelled`                        | `TASK_STATE_CANCELED`       |
 *
 * @param status - the run task's status.
 */
export function a2aTaskState(status: RunTaskStatus): TaskState {
  switch (status.state) {
    case "working":
      return status.runId === undefined
        ? TaskState.TASK_STATE_SUBMITTED
        : TaskState.TASK_STATE_WORKING;
    case "input_required":
      return TaskState.TASK_STATE_INPUT_REQUIRED;
    case "completed":
      return TaskState.TASK_STATE_COMPLETED;
    case "failed":
      return TaskState.TASK_STATE_FAILED;
    case "cancelled":
      return TaskState.TASK_STATE_CANCELED;
  }
}

/**
 * What an `input-required` task asks, as an agent message: a text saying what
 * to reply and a data part with the details (`{ kind: "approval", toolCallId,
 * tool, arguments }` or `{ kind: "question", questionId, text, choices? }`).
 *
 * @param ref - the task.
 * @param pending - the open approval or question.
 */
export function pendingInputMessage(
  ref: RunTaskRef & { taskId: string },
  pending: PendingInput,
): Message {
  if (pending.kind === "approval") {
    const text =
      `Approve the tool call ${pending.tool} with ${JSON.stringify(pending.arguments)}? ` +
      'Reply "approve" or "deny" (or a data part {"approve": true|false}).';
    const { kind, toolCallId, tool } = pending;
    return agentMessage(ref, `approval-${toolCallId}`, [
      textPart(text),
      dataPart({ kind, toolCallId, tool, arguments: pending.arguments }),
    ]);
  }
  const choices = pending.choices === undefined ? "" : ` (choices: ${pending.choices.join(", ")})`;
  const { kind, questionId, text } = pending;
  return agentMessage(ref, `question-${questionId}`, [
    textPart(`${text}${choices}`),
    dataPart({
      kind,
      questionId,
      text,
      ...(pending.choices === undefined ? {} : { choices: pending.choices }),
    }),
  ]);
}

/**
 * The status message of a task: what is asked (`input-required`), the error
 * (`failed`), the reason (`canceled`, when given); none otherwise.
 */
function statusMessage(
  ref: RunTaskRef & { taskId: string },
  status: RunTaskStatus,
): Message | undefined {
  if (status.state === "input_required" && status.pending !== undefined) {
    return pendingInputMessage(ref, status.pending);
  }
  if (status.state === "failed" && status.error !== undefined) {
    return agentMessage(ref, "failed", [textPart(`${status.error.code}: ${status.error.message}`)]);
  }
  if (status.state === "cancelled" && status.error !== undefined) {
    return agentMessage(ref, "cancelled", [textPart(status.error.message)]);
  }
  return undefined;
}

/**
 * The A2A task status (state, message, timestamp) of a run task's status.
 *
 * @param ref - the task.
 * @param status - the run task's status.
 * @param timestamp - ISO 8601 time of the status (the caller's clock; not stored).
 */
export function a2aTaskStatus(
  ref: RunTaskRef & { taskId: string },
  status: RunTaskStatus,
  timestamp: string,
): Task["status"] {
  return { state: a2aTaskState(status), message: statusMessage(ref, status), timestamp };
}

/**
 * The A2A task of a Troupe run task (docs/decisions/0026): id `<sessionId>.<clientMessageId>`,
 * `contextId` the session id, the state per {@link a2aTaskState}, the answer
 * (or a cancelled run's partial text) as the artifact `answer`, and
 * `metadata.troupe` `{ sessionId, clientMessageId, runId? }`. `history` is
 * empty: the messages live in the session (`troupe tail`).
 *
 * @param ref - the task.
 * @param status - its status, from the session's events.
 * @param timestamp - ISO 8601 time of the status.
 * @returns the task, in the SDK's v1.0 shape.
 */
export function a2aTask(
  ref: RunTaskRef & { taskId: string },
  status: RunTaskStatus,
  timestamp: string,
): Task {
  return {
    id: ref.taskId,
    contextId: ref.sessionId,
    status: a2aTaskStatus(ref, status, timestamp),
    artifacts: status.answer === undefined ? [] : [answerArtifact(status.answer)],
    history: [],
    metadata: {
      troupe: {
        sessionId: ref.sessionId,
        clientMessageId: ref.clientMessageId,
        ...(status.runId === undefined ? {} : { runId: status.runId }),
      },
    },
  };
}
