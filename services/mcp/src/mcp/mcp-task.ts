import type { CallToolResult, Task } from "@modelcontextprotocol/sdk/types.js";
import { RELATED_TASK_META_KEY } from "@modelcontextprotocol/sdk/types.js";
import type { RunTaskRef, RunTaskStatus } from "@troupe/client/tasks";

/** How often an MCP client should poll `tasks/get`, in ms (the `pollInterval` of every task). */
export const TASK_POLL_INTERVAL_MS = 500;

/**
 * A run task as an MCP task (spec 2025-11-25, `tasks/get`). The
 * states map one to one; `ttl` is `null` (the task lives as long as the
 * deployment keeps the session's events); times come from the events, or
 * `nowMs` before the session admitted the message.
 *
 * @param taskId - the task id.
 * @param status - the run task's status.
 * @param nowMs - the current time, Unix ms (for a task not yet admitted).
 */
export function mcpTaskOf(taskId: string, status: RunTaskStatus, nowMs: number): Task {
  const createdAt = new Date(status.createdAtMs ?? nowMs).toISOString();
  const lastUpdatedAt = new Date(status.updatedAtMs ?? nowMs).toISOString();
  return {
    taskId,
    status: status.state,
    ttl: null,
    createdAt,
    lastUpdatedAt,
    pollInterval: TASK_POLL_INTERVAL_MS,
    ...statusMessage(status),
  };
}

function statusMessage(status: RunTaskStatus): { statusMessage?: string } {
  if (status.pending?.kind === "approval") {
    return { statusMessage: `waiting for approval of ${status.pending.tool}` };
  }
  if (status.pending?.kind === "question") {
    return { statusMessage: `waiting for an answer: ${status.pending.text}` };
  }
  if (status.error !== undefined)
    return { statusMessage: `${status.error.code}: ${status.error.message}` };
  return {};
}

/**
 * The `tools/call` result of a finished run task: the answer as text content,
 * `structuredContent` `{ answer, state, sessionId, taskId, runId? }`, and
 * `isError` unless it completed (a failed run's text is its error; a cancelled
 * run's is its partial answer, if any).
 *
 * @param ref - the task's session and client message id, with its task id.
 * @param status - a final status.
 * @param related - add the related-task `_meta` (`tasks/result`).
 */
export function callToolResultOf(
  ref: RunTaskRef & { readonly taskId: string },
  status: RunTaskStatus,
  related = false,
): CallToolResult {
  const answer = status.answer ?? "";
  const state = status.state;
  const text =
    state === "completed"
      ? answer
      : state === "failed"
        ? `The run failed: ${status.error?.code ?? "internal"}: ${status.error?.message ?? ""}`
        : `The run was cancelled${status.error === undefined ? "" : ` (${status.error.message})`}.${answer === "" ? "" : ` Partial answer: ${answer}`}`;
  return {
    content: [{ type: "text", text }],
    structuredContent: {
      answer,
      state,
      sessionId: ref.sessionId,
      taskId: ref.taskId,
      ...(status.runId === undefined ? {} : { runId: status.runId }),
    },
    ...(state === "completed" ? {} : { isError: true }),
    ...(related ? { _meta: { [RELATED_TASK_META_KEY]: { taskId: ref.taskId } } } : {}),
  };
}
