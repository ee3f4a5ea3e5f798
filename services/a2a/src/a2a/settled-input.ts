import { isFinalRunTaskState } from "@troupe/client/tasks";
import type { PendingInput, RunTaskStatus } from "@troupe/client/tasks";

/**
 * Identity of an open approval or question, to tell the one just settled from
 * a new one: `approval <sessionId> <toolCallId>` or `question <sessionId> <questionId>`.
 */
export function pendingKey(pending: PendingInput): string {
  return pending.kind === "approval"
    ? `approval ${pending.sessionId} ${pending.toolCallId}`
    : `question ${pending.sessionId} ${pending.questionId}`;
}

/**
 * Where a wait or a stream stops: at a final state, or at an `input-required`
 * other than the one just settled.
 *
 * @param settled - {@link pendingKey} of the input just settled, if any.
 */
export function stopAt(settled: string | undefined): (status: RunTaskStatus) => boolean {
  return (status) =>
    isFinalRunTaskState(status.state) ||
    (status.state === "input_required" &&
      status.pending !== undefined &&
      pendingKey(status.pending) !== settled);
}

/**
 * A status still showing the approval or question just settled (its
 * settlement not stored yet) shows as `working`; any other as it is.
 *
 * @param status - the task's status.
 * @param settled - {@link pendingKey} of the input just settled, if any.
 */
export function hideSettled(status: RunTaskStatus, settled: string | undefined): RunTaskStatus {
  if (status.state !== "input_required" || status.pending === undefined) return status;
  if (pendingKey(status.pending) !== settled) return status;
  return {
    state: "working",
    ...(status.runId === undefined ? {} : { runId: status.runId }),
    sequence: status.sequence,
  };
}
