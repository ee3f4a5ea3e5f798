import { formatAddress, toolActorId, type SubagentFinished } from "@troupe/protocol";
import { emitEvent, sendMessage } from "@troupe/protocol";
import type { MachineStep } from "../host-actions/machine-step.js";
import type { ToolCallContext, ToolCallRequest } from "./tool-call-context.js";
import {
  DELEGATION_DEPTH_CODE,
  INVALID_ARGUMENTS_CODE,
  type ToolCallEvent,
} from "./tool-call-events.js";
import {
  argumentsOf,
  callOf,
  finishActions,
  toolStartedEvent,
  type ToolCallStep,
} from "./tool-call-steps.js";

// Steps of the tool call machine for a subagent call (`tool.start` with
// `subagent`): instead of the `tool.execute` effect, the call hands its task to
// a session of its own and waits for that session's `subagent.finished`.

/** How deep delegation may go: a top-level session's run may delegate, a subagent's may not. */
export const MAX_DELEGATION_DEPTH = 1;

/**
 * Id of the session a subagent call runs in: `sub-` + the call's tool actor id
 * (`toolActorId(sessionId, runId, toolCallId)`), the same on every replay.
 *
 * @param sessionId - the delegating session.
 * @param runId - the delegating run.
 * @param toolCallId - the model's id of the call.
 */
export function subagentSessionId(sessionId: string, runId: string, toolCallId: string): string {
  return `sub-${toolActorId(sessionId, runId, toolCallId)}`;
}

/**
 * The task of a subagent call: the `task` string of its JSON arguments, or
 * undefined when they do not hold a non-empty one.
 *
 * @param input - the arguments text as the model wrote it.
 */
export function taskOf(input: string): string | undefined {
  const parsed = argumentsOf(input);
  if (typeof parsed !== "object" || parsed === null) return undefined;
  const { task } = parsed as Record<string, unknown>;
  return typeof task === "string" && task.trim() !== "" ? task : undefined;
}

/** Content the model reads for a subagent call without a task. */
export const INVALID_TASK_CONTENT =
  'Invalid arguments: a subagent takes { "task": string } with a non-empty task.';
/** Content the model reads when a subagent tries to delegate (depth above {@link MAX_DELEGATION_DEPTH}). */
export const DELEGATION_DEPTH_CONTENT = `Refused: a subagent may not delegate to another subagent (maximum delegation depth ${MAX_DELEGATION_DEPTH}). Do the task yourself.`;

/** Ends the call at once with a tool error (no subagent runs). */
function refuse(
  context: ToolCallContext,
  sessionId: string,
  call: ToolCallRequest,
  status: "failed" | "invalid_arguments",
  content: string,
  errorCode: string,
): MachineStep<ToolCallContext> {
  return {
    context: { sessionId, call, status },
    actions: finishActions(context, sessionId, call, { status, content, errorCode }),
  };
}

/**
 * `tool.started`, `subagent.started`, and the task as a `user.message` to the
 * subagent's session, whose metadata names the parent: `{ parentSessionId,
 * parentRunId, parentToolActor: "tool/<id>", depth }`.
 */
function delegateActions(actorId: string, sessionId: string, call: ToolCallRequest, task: string) {
  const { runId, toolCallId, subagent } = call;
  const childId = subagentSessionId(sessionId, runId, toolCallId);
  const child = formatAddress({ kind: "session", id: childId });
  return [
    toolStartedEvent(call),
    emitEvent("subagent.started", {
      subagent: child,
      runId,
      task,
      ...(subagent === undefined ? {} : { agent: subagent }),
    }),
    sendMessage({
      to: child,
      type: "user.message",
      payload: {
        text: task,
        ...(subagent === undefined ? {} : { agent: subagent }),
        clientMessageId: actorId,
        metadata: {
          parentSessionId: sessionId,
          // The delegating run: its `run` spend budget counts the subagent's calls.
          parentRunId: runId,
          parentToolActor: formatAddress({ kind: "tool", id: actorId }),
          depth: MAX_DELEGATION_DEPTH,
        },
      },
    }),
  ];
}

/**
 * Delegates the call's task (decision `allow`, or after an approval): a
 * subagent's own run may not delegate (depth) and a call needs a task —
 * otherwise the call ends with a tool error.
 */
function delegate(
  context: ToolCallContext,
  sessionId: string,
  call: ToolCallRequest,
): MachineStep<ToolCallContext> {
  if (call.parentSessionId !== undefined) {
    return refuse(
      context,
      sessionId,
      call,
      "failed",
      DELEGATION_DEPTH_CONTENT,
      DELEGATION_DEPTH_CODE,
    );
  }
  const task = taskOf(call.input);
  if (task === undefined) {
    return refuse(
      context,
      sessionId,
      call,
      "invalid_arguments",
      INVALID_TASK_CONTENT,
      INVALID_ARGUMENTS_CODE,
    );
  }
  return {
    context: {
      sessionId,
      call,
      childSessionId: subagentSessionId(sessionId, call.runId, call.toolCallId),
    },
    actions: delegateActions(context.actorId, sessionId, call, task),
  };
}

/** Whether the call would delegate, i.e. may go to `delegating` (see {@link delegate}). */
export const canDelegate = (call: ToolCallRequest | undefined): boolean =>
  call !== undefined &&
  call.subagent !== undefined &&
  call.parentSessionId === undefined &&
  taskOf(call.input) !== undefined;

/** `tool.start` of a subagent call (decision `allow`). */
export const startDelegation: ToolCallStep = (context, event) => {
  const call = callOf(event);
  if (event.type !== "tool.start" || call === undefined) return {};
  return delegate(context, event.sessionId, call);
};

/** The first `tool.approve` of a subagent call: `tool.approval_settled`, then the delegation. */
export const approveDelegation: ToolCallStep = (context) => {
  const { sessionId, call } = context;
  if (sessionId === undefined || call === undefined) return {};
  const delegated = delegate(context, sessionId, call);
  return {
    context: { ...delegated.context, approval: "approved" },
    actions: [
      emitEvent("tool.approval_settled", { toolCallId: call.toolCallId, decision: "approved" }),
      ...(delegated.actions ?? []),
    ],
  };
};

/**
 * `subagent.finished` from the subagent's session: `subagent.completed` when
 * it answered, then the call ends `succeeded` with the answer as its result,
 * or `failed` (the subagent's run failed or was cancelled).
 */
export const finishDelegation: ToolCallStep = (context, event) => {
  const { sessionId, call, childSessionId } = context;
  if (sessionId === undefined || call === undefined || event.type !== "subagent.finished") {
    return {};
  }
  const finished: SubagentFinished = event;
  const subagent = formatAddress({ kind: "session", id: childSessionId ?? finished.sessionId });
  if (finished.outcome === "completed") {
    return {
      context: { status: "succeeded" },
      actions: [
        emitEvent("subagent.completed", { subagent, runId: call.runId, text: finished.text }),
        ...finishActions(context, sessionId, call, {
          status: "succeeded",
          content: finished.text,
          errorCode: "",
        }),
      ],
    };
  }
  const why = finished.outcome === "cancelled" ? "was cancelled" : "failed";
  const content = `The subagent ${why}${finished.text === "" ? "." : `: ${finished.text}`}`;
  return {
    context: { status: "failed" },
    actions: finishActions(context, sessionId, call, {
      status: "failed",
      content,
      errorCode: finished.outcome === "cancelled" ? "subagent_cancelled" : "subagent_failed",
    }),
  };
};

/**
 * `tool.cancel` while the subagent works: `run.cancel` to its session (its run
 * cancels its own tool calls in turn); the call still waits for its
 * `subagent.finished` to end, but no longer answers the run.
 */
export const cancelDelegation: ToolCallStep = ({ childSessionId }) => {
  if (childSessionId === undefined) return { context: { cancelRequested: true } };
  return {
    context: { cancelRequested: true },
    actions: [
      sendMessage({
        to: formatAddress({ kind: "session", id: childSessionId }),
        type: "run.cancel",
        payload: { reason: "the delegating run was cancelled" },
      }),
    ],
  };
};

/** A `subagent.finished` from this call's subagent session. */
export const isOwnSubagent = (context: ToolCallContext, event: ToolCallEvent): boolean =>
  event.type === "subagent.finished" &&
  context.childSessionId !== undefined &&
  event.sessionId === context.childSessionId;
