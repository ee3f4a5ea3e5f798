import {
  TOOL_EXECUTE_EFFECT,
  idempotencyKeyOf,
  toolExecuteOutputSchema,
  type ToolExecuteInput,
  type ToolExecutionStatus,
  type ToolFinished,
  type WireError,
  type MediaRef,
} from "@troupe/protocol";
import { cancelEffect, emitEvent, requestEffect, sendMessage } from "@troupe/protocol";
import type { MachineStep } from "../host-actions/machine-step.js";
import { runAddressOf } from "../session/session-run-steps.js";
import type { ApprovalDecision, ToolCallContext, ToolCallRequest } from "./tool-call-context.js";
import {
  DENIED_CODE,
  INVALID_ARGUMENTS_CODE,
  INVALID_TOOL_OUTPUT_CODE,
  TOOL_EXECUTE_EFFECT_ID,
  TOOL_FAILED_CODE,
  type ToolCallEvent,
} from "./tool-call-events.js";

// The tool call machine's steps: pure functions of context and event that say
// what changes and what the host must do. tool-call-machine.ts decides when
// each runs.

/** A step of the tool call machine: context and event in, patch and host actions out. */
export type ToolCallStep = (
  context: ToolCallContext,
  event: ToolCallEvent,
) => MachineStep<ToolCallContext>;

/** How the execution ended, with the error code `tool.failed` reports when it failed. */
export interface Outcome {
  readonly status: ToolExecutionStatus;
  readonly content: string;
  readonly truncated?: boolean;
  /** Media references the tool returned (docs/decisions/0045). */
  readonly media?: readonly MediaRef[];
  readonly errorCode: string;
}

/** The call `tool.start` describes (without the session id). */
export function callOf(event: ToolCallEvent): ToolCallRequest | undefined {
  if (event.type !== "tool.start") return undefined;
  const {
    runId,
    toolCallId,
    toolName,
    input,
    effectClass,
    agent,
    decision,
    approvalTimeoutMs,
    subagent,
    parentSessionId,
  } = event;
  return {
    runId,
    toolCallId,
    toolName,
    input,
    effectClass,
    ...(agent === undefined ? {} : { agent }),
    ...(decision === undefined ? {} : { decision }),
    ...(approvalTimeoutMs === undefined ? {} : { approvalTimeoutMs }),
    ...(subagent === undefined ? {} : { subagent }),
    ...(parentSessionId === undefined ? {} : { parentSessionId }),
  };
}

/**
 * `tool.started` of a call: its id, run, tool, effect class and arguments
 * (parsed as in `tool.approval_requested`).
 */
export function toolStartedEvent(call: ToolCallRequest) {
  return emitEvent("tool.started", {
    toolCallId: call.toolCallId,
    runId: call.runId,
    tool: call.toolName,
    effectClass: call.effectClass,
    arguments: argumentsOf(call.input),
  });
}

/** `tool.started`, then the `tool.execute` effect. */
function executeActions(sessionId: string, call: ToolCallRequest) {
  const { runId, toolCallId, toolName, input, effectClass, agent } = call;
  const effectInput: ToolExecuteInput = {
    sessionId,
    runId,
    toolCallId,
    toolName,
    input,
    effectClass,
    ...(agent === undefined ? {} : { agent }),
    idempotencyKey: idempotencyKeyOf(sessionId, runId, toolCallId),
  };
  return [
    toolStartedEvent(call),
    requestEffect({
      effect: TOOL_EXECUTE_EFFECT,
      effectId: TOOL_EXECUTE_EFFECT_ID,
      input: effectInput,
    }),
  ];
}

/** Takes the call from `tool.start` (decision `allow`): `tool.started`, then the `tool.execute` effect. */
export const startCall: ToolCallStep = (_, event) => {
  const call = callOf(event);
  if (event.type !== "tool.start" || call === undefined) return {};
  return {
    context: { sessionId: event.sessionId, call },
    actions: executeActions(event.sessionId, call),
  };
};

/** The `tool.failed` (or other end event) and the `tool.finished` answer for an outcome. */
export function finishActions(
  context: ToolCallContext,
  sessionId: string,
  call: ToolCallRequest,
  outcome: Outcome,
) {
  const { status, content, truncated } = outcome;
  const about = { toolCallId: call.toolCallId, runId: call.runId, tool: call.toolName };
  // `truncated` and the tool's media references, when present.
  const truncation = {
    ...(truncated === undefined ? {} : { truncated }),
    ...(outcome.media === undefined ? {} : { media: [...outcome.media] }),
  };
  const error: WireError = { code: outcome.errorCode, message: content, retryable: false };
  const published =
    status === "succeeded"
      ? emitEvent("tool.completed", { ...about, content, ...truncation })
      : status === "outcome_unknown"
        ? emitEvent("tool.outcome_unknown", { ...about, reason: content })
        : emitEvent("tool.failed", { ...about, error });
  const finished: ToolFinished = {
    runId: call.runId,
    toolCallId: call.toolCallId,
    status,
    content,
    ...truncation,
  };
  const answer = sendMessage({
    to: runAddressOf(sessionId),
    type: "tool.finished",
    payload: finished,
  });
  return context.cancelRequested ? [published] : [published, answer];
}

/** Content the model reads for a call the tool policy denies. */
export const deniedByPolicyContent = (toolName: string) =>
  `Denied by policy: the tool ${toolName} may not be called in this session. It did not run.`;
/** Content the model reads for a call the user denied (with the user's reason, if any). */
export const deniedByUserContent = (reason: string | undefined) =>
  `Denied by the user: the call did not run.${reason === undefined || reason === "" ? "" : ` Reason: ${reason}`}`;
/** Content the model reads for a call whose approval request timed out. */
export const APPROVAL_TIMED_OUT_CONTENT =
  "Denied: nobody approved the call before its approval request timed out. It did not run.";

/**
 * A `tool.start` that ends the call at once, with the outcome `outcomeOf` gives
 * for it: `tool.failed` and `tool.finished`, nothing run.
 */
function finishAtStart(outcomeOf: (call: ToolCallRequest) => Outcome): ToolCallStep {
  return (context, event) => {
    const call = callOf(event);
    if (event.type !== "tool.start" || call === undefined) return {};
    const outcome = outcomeOf(call);
    return {
      context: { sessionId: event.sessionId, call, status: outcome.status },
      actions: finishActions(context, event.sessionId, call, outcome),
    };
  };
}

/** `tool.start` with decision `deny`: the call never runs; `tool.failed` (`denied`) and `tool.finished` `failed`. */
export const denyByPolicy: ToolCallStep = finishAtStart((call) => ({
  status: "failed",
  content: deniedByPolicyContent(call.toolName),
  errorCode: DENIED_CODE,
}));

/**
 * The arguments of a call as `tool.approval_requested` shows them: the parsed
 * JSON (an empty text counts as `{}`), or the raw text when it is not JSON.
 *
 * @param input - the arguments text as the model wrote it.
 */
export function argumentsOf(input: string): unknown {
  if (input.trim() === "") return {};
  try {
    return JSON.parse(input) as unknown;
  } catch {
    return input;
  }
}

/** `tool.start` with decision `ask`: `tool.approval_requested`; the call waits. */
export const requestApproval: ToolCallStep = (_, event) => {
  const call = callOf(event);
  if (event.type !== "tool.start" || call === undefined) return {};
  return {
    context: { sessionId: event.sessionId, call },
    actions: [
      emitEvent("tool.approval_requested", {
        toolCallId: call.toolCallId,
        tool: call.toolName,
        arguments: argumentsOf(call.input),
        runId: call.runId,
        sessionId: event.sessionId,
      }),
    ],
  };
};

const settled = (toolCallId: string, decision: ApprovalDecision, alreadySettled?: true) =>
  emitEvent("tool.approval_settled", {
    toolCallId,
    decision,
    ...(alreadySettled === undefined ? {} : { alreadySettled }),
  });

/** The first `tool.approve`: `tool.approval_settled` (`approved`), then the call runs as if allowed. */
export const approve: ToolCallStep = ({ sessionId, call }) => {
  if (sessionId === undefined || call === undefined) return {};
  return {
    context: { approval: "approved" },
    actions: [settled(call.toolCallId, "approved"), ...executeActions(sessionId, call)],
  };
};

/** Settles the approval as denied (by the user, or by the timeout): the call never runs. */
function denySettled(decision: "denied" | "timed_out", content: string): ToolCallStep {
  return (context) => {
    const { sessionId, call } = context;
    if (sessionId === undefined || call === undefined) return {};
    const outcome: Outcome = { status: "failed", content, errorCode: DENIED_CODE };
    return {
      context: { approval: decision, status: "failed" },
      actions: [
        settled(call.toolCallId, decision),
        ...finishActions(context, sessionId, call, outcome),
      ],
    };
  };
}

/** The first `tool.deny`: `tool.approval_settled` (`denied`), `tool.failed` (`denied`), `tool.finished` `failed`. */
export const denyByUser: ToolCallStep = (context, event) =>
  denySettled("denied", deniedByUserContent(event.type === "tool.deny" ? event.reason : undefined))(
    context,
    event,
  );

/** The approval timed out: settled `timed_out`, treated as a denial. */
export const timeOutApproval: ToolCallStep = denySettled("timed_out", APPROVAL_TIMED_OUT_CONTENT);

/** A `tool.approve` / `tool.deny` after the settlement: `tool.approval_settled` with `alreadySettled` and the first decision. */
export const reportAlreadySettled: ToolCallStep = ({ call, approval }) => {
  if (call === undefined || approval === undefined) return {};
  return { actions: [settled(call.toolCallId, approval, true)] };
};

/**
 * The question of an `ask_user` call: the `question` string of its JSON
 * arguments, or undefined when they do not hold one.
 *
 * @param input - the arguments text as the model wrote it.
 */
export function questionOf(input: string): string | undefined {
  const parsed = argumentsOf(input);
  if (typeof parsed !== "object" || parsed === null) return undefined;
  const { question } = parsed as Record<string, unknown>;
  return typeof question === "string" && question.trim() !== "" ? question : undefined;
}

/** `tool.start` of `ask_user`: `tool.started`, `question.asked` (`questionId` = the call id); the call waits. */
export const askQuestion: ToolCallStep = (_, event) => {
  const call = callOf(event);
  if (event.type !== "tool.start" || call === undefined) return {};
  const text = questionOf(call.input) ?? "";
  const { toolCallId, runId } = call;
  return {
    context: { sessionId: event.sessionId, call },
    actions: [
      toolStartedEvent(call),
      emitEvent("question.asked", {
        questionId: toolCallId,
        runId,
        text,
        sessionId: event.sessionId,
      }),
    ],
  };
};

/** Content the model reads for an `ask_user` call without a question. */
export const INVALID_QUESTION_CONTENT =
  'Invalid arguments: ask_user takes { "question": string } with a non-empty question.';

/** `tool.start` of `ask_user` without a question: `tool.failed` (`invalid_arguments`), `tool.finished`. */
export const rejectQuestion: ToolCallStep = finishAtStart(() => ({
  status: "invalid_arguments",
  content: INVALID_QUESTION_CONTENT,
  errorCode: INVALID_ARGUMENTS_CODE,
}));

/** `question.answer` for the call: `question.answered`, `tool.completed` and `tool.finished` with the answer. */
export const answerQuestion: ToolCallStep = (context, event) => {
  const { sessionId, call } = context;
  if (sessionId === undefined || call === undefined || event.type !== "question.answer") return {};
  const outcome: Outcome = {
    status: "succeeded",
    content: event.text,
    errorCode: TOOL_FAILED_CODE,
  };
  return {
    context: { status: "succeeded" },
    actions: [
      emitEvent("question.answered", {
        questionId: call.toolCallId,
        text: event.text,
        runId: call.runId,
      }),
      ...finishActions(context, sessionId, call, outcome),
    ],
  };
};

/** The outcome an effect result stands for (a crashed handler or a malformed output is a failure). */
function outcomeOf(event: ToolCallEvent): Outcome | undefined {
  if (event.type === "effect.failed") {
    return { status: "failed", content: event.error.message, errorCode: event.error.code };
  }
  if (event.type !== "effect.completed") return undefined;
  const parsed = toolExecuteOutputSchema.safeParse(event.output);
  if (!parsed.success) {
    return {
      status: "failed",
      content: `${TOOL_EXECUTE_EFFECT} returned a malformed result (expected { status, content, truncated? })`,
      errorCode: INVALID_TOOL_OUTPUT_CODE,
    };
  }
  const { status, content, truncated, media } = parsed.data;
  const errorCode = status === "invalid_arguments" ? INVALID_ARGUMENTS_CODE : TOOL_FAILED_CODE;
  return {
    status,
    content,
    ...(truncated === undefined ? {} : { truncated }),
    ...(media === undefined ? {} : { media }),
    errorCode,
  };
}

/**
 * The execution ended: publishes `tool.completed`, `tool.failed` or
 * `tool.outcome_unknown`, and answers the run with `tool.finished` — unless
 * the run cancelled the call (it no longer waits; it recorded the call as
 * cancelled itself).
 */
export const reportOutcome: ToolCallStep = (context, event) => {
  const { sessionId, call } = context;
  const outcome = outcomeOf(event);
  if (sessionId === undefined || call === undefined || outcome === undefined) return {};
  return {
    context: { status: outcome.status },
    actions: finishActions(context, sessionId, call, outcome),
  };
};

/** `tool.cancel` while executing: asks the host to abort the effect; its result is still reported as an event. */
export const cancelExecution: ToolCallStep = () => ({
  context: { cancelRequested: true },
  actions: [cancelEffect({ effectId: TOOL_EXECUTE_EFFECT_ID })],
});

/** `tool.cancel` before `tool.start`, or while the call waits for an approval or an answer: it will never run. */
export const cancelBeforeStart: ToolCallStep = () => ({ context: { cancelRequested: true } });
