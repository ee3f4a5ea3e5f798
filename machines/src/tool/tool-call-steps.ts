import {
  idempotencyKeyOf,
  type ToolExecutionStatus,
  type ToolFinished,
  type WireError,
} from "@troupe/protocol";
import {
  cancelEffect,
  emitEvent,
  requestEffect,
  sendMessage,
} from "../host-actions/host-action-creators.js";
import type { MachineStep } from "../host-actions/machine-step.js";
import { runAddressOf } from "../session/session-run-steps.js";
import type { ToolCallContext, ToolCallRequest } from "./tool-call-context.js";
import {
  INVALID_ARGUMENTS_CODE,
  INVALID_TOOL_OUTPUT_CODE,
  TOOL_FAILED_CODE,
  type ToolCallEvent,
} from "./tool-call-events.js";
import {
  TOOL_EXECUTE_EFFECT,
  TOOL_EXECUTE_EFFECT_ID,
  readToolExecuteOutput,
  type ToolExecuteInput,
} from "./tool-execute.js";

// The tool call machine's steps: pure functions of context and event that say
// what changes and what the host must do. tool-call-machine.ts decides when
// each runs.

/** A step of the tool call machine: context and event in, patch and host actions out. */
export type ToolCallStep = (
  context: ToolCallContext,
  event: ToolCallEvent,
) => MachineStep<ToolCallContext>;

/** How the execution ended, with the error code `tool.failed` reports when it failed. */
interface Outcome {
  readonly status: ToolExecutionStatus;
  readonly content: string;
  readonly truncated?: boolean;
  readonly errorCode: string;
}

/** Takes the call from `tool.start`: `tool.started`, then the `tool.execute` effect. */
export const startCall: ToolCallStep = (_, event) => {
  if (event.type !== "tool.start") return {};
  const { sessionId, runId, toolCallId, toolName, input, effectClass, agent } = event;
  const call: ToolCallRequest = {
    runId,
    toolCallId,
    toolName,
    input,
    effectClass,
    ...(agent === undefined ? {} : { agent }),
  };
  const effectInput: ToolExecuteInput = {
    sessionId,
    ...call,
    idempotencyKey: idempotencyKeyOf(sessionId, runId, toolCallId),
  };
  return {
    context: { sessionId, call },
    actions: [
      emitEvent("tool.started", { toolCallId, runId, tool: toolName, effectClass }),
      requestEffect({
        effect: TOOL_EXECUTE_EFFECT,
        effectId: TOOL_EXECUTE_EFFECT_ID,
        input: effectInput,
      }),
    ],
  };
};

/** The outcome an effect result stands for (a crashed handler or a malformed output is a failure). */
function outcomeOf(event: ToolCallEvent): Outcome | undefined {
  if (event.type === "effect.failed") {
    return { status: "failed", content: event.error.message, errorCode: event.error.code };
  }
  if (event.type !== "effect.completed") return undefined;
  const output = readToolExecuteOutput(event.output);
  if (output === undefined) {
    return {
      status: "failed",
      content: `${TOOL_EXECUTE_EFFECT} returned a malformed result (expected { status, content, truncated? })`,
      errorCode: INVALID_TOOL_OUTPUT_CODE,
    };
  }
  const errorCode =
    output.status === "invalid_arguments" ? INVALID_ARGUMENTS_CODE : TOOL_FAILED_CODE;
  return { ...output, errorCode };
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
  const { status, content, truncated } = outcome;
  const about = { toolCallId: call.toolCallId, runId: call.runId, tool: call.toolName };
  const truncation = truncated === undefined ? {} : { truncated };
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
  return {
    context: { status },
    actions: context.cancelRequested ? [published] : [published, answer],
  };
};

/** `tool.cancel` while executing: asks the host to abort the effect; its result is still reported as an event. */
export const cancelExecution: ToolCallStep = () => ({
  context: { cancelRequested: true },
  actions: [cancelEffect({ effectId: TOOL_EXECUTE_EFFECT_ID })],
});

/** `tool.cancel` before `tool.start`: the call will never run. */
export const cancelBeforeStart: ToolCallStep = () => ({ context: { cancelRequested: true } });
