/**
 * @troupe/client/tasks — protocol tasks as Troupe runs, the layer the MCP and
 * A2A servers share (docs/decisions/0025): a task id is
 * `<sessionId>.<clientMessageId>` ({@link runTaskId}, {@link parseRunTaskId}),
 * its status is read from the session's events ({@link RunTasks},
 * {@link RunTaskTracker}), cancel and settle are commands to the session.
 * A task keeps no state of its own.
 *
 * @packageDocumentation
 */
export { parseRunTaskId, runTaskId, InvalidTaskIdError, type RunTaskRef } from "./run-task-id.js";
export {
  RunTaskTracker,
  isFinalRunTaskState,
  type PendingInput,
  type RunTaskState,
  type RunTaskStatus,
  type TrackedEvent,
} from "./run-task-status.js";
export {
  compareTaskStreamCursors,
  cursorHoldsEnd,
  formatTaskStreamCursor,
  InvalidTaskStreamCursorError,
  parseTaskStreamCursor,
  TASK_STREAM_START,
  TaskStreamCursors,
  type PlacedItem,
  type TaskStreamCursor,
} from "./task-stream-cursor.js";
export {
  RunTasks,
  type FollowRunTaskOptions,
  type PendingDecision,
  type RunTasksOptions,
  type StartRunTaskInput,
  type StartedRunTask,
} from "./run-tasks.js";
