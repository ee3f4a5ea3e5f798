import {
  formatAddress,
  toolActorId,
  type ToolCancel,
  type ToolStart,
  type TranscriptEntry,
} from "@troupe/protocol";
import { emitEvent, sendMessage } from "@troupe/protocol";
import { readModelCallOutput } from "./model-call-output.js";
import type { ActiveRun, RunContext } from "./run-context.js";
import type { RunEvent } from "./run-events.js";
import { addUsage, appendAll, finish, steerEntries, type RunStep } from "./run-steps.js";
import {
  advanceToolPhase,
  cancelToolPhase,
  openToolPhase,
  settleToolCall,
  toolResultEntries,
  type ToolCallSlot,
} from "./tool-phase.js";

// The run machine's steps for the tool calls of a model response: pure
// functions of context and event; run-machine.ts decides when each runs.

/**
 * Address of the actor of one tool call:
 * `tool/<toolActorId(sessionId, runId, toolCallId)>`.
 *
 * @param sessionId - the session.
 * @param runId - the run.
 * @param toolCallId - the model's id of the call.
 */
export function toolAddressOf(sessionId: string, runId: string, toolCallId: string): string {
  return formatAddress({ kind: "tool", id: toolActorId(sessionId, runId, toolCallId) });
}

/** `tool.start` for each call that starts now, in the model's order. */
function startMessages(context: RunContext, run: ActiveRun, starting: readonly ToolCallSlot[]) {
  return starting.map(
    ({ toolCallId, toolName, input, effectClass, decision, approvalTimeoutMs, subagent }) => {
      const payload: ToolStart = {
        sessionId: context.sessionId,
        runId: run.runId,
        toolCallId,
        toolName,
        input,
        effectClass,
        ...(run.agent === undefined ? {} : { agent: run.agent }),
        ...(decision === undefined ? {} : { decision }),
        ...(approvalTimeoutMs === undefined ? {} : { approvalTimeoutMs }),
        ...(subagent === undefined ? {} : { subagent }),
        ...(context.parentSessionId === undefined
          ? {}
          : { parentSessionId: context.parentSessionId }),
      };
      const to = toolAddressOf(context.sessionId, run.runId, toolCallId);
      return sendMessage({
        to,
        type: "tool.start",
        payload,
        ...(run.priority === undefined ? {} : { priority: run.priority }),
      });
    },
  );
}

/**
 * The phase after the `tool.finished` in `event` (recorded, then advanced), or
 * undefined when the run has no tool phase or the event is not a result.
 *
 * @param run - the run in progress.
 * @param event - the event.
 */
export function phaseAfterResult(
  run: ActiveRun | undefined,
  event: RunEvent,
): ReturnType<typeof settleToolCall> | undefined {
  if (run?.toolPhase === undefined || event.type !== "tool.finished") return undefined;
  const { toolCallId, status, content, media } = event;
  return settleToolCall(run.toolPhase, toolCallId, {
    status,
    content,
    ...(media === undefined ? {} : { media }),
  });
}

/**
 * The model asked for tools: appends its answer with the tool calls, takes
 * the call's usage, and starts the calls that may start (all reads, the first
 * write).
 */
export const startTools: RunStep = (context, event) => {
  const { run } = context;
  const output = event.type === "effect.completed" ? readModelCallOutput(event.output) : undefined;
  if (run === undefined || output === undefined) return {};
  const entry: TranscriptEntry = {
    role: "assistant",
    text: output.text,
    runId: run.runId,
    toolCalls: output.toolCalls.map(({ toolCallId, toolName, input }) => ({
      toolCallId,
      toolName,
      input,
    })),
  };
  const { phase, starting } = advanceToolPhase(openToolPhase(output.toolCalls));
  const next: ActiveRun = {
    ...run,
    usage: addUsage(run.usage, output.usage),
    transcriptLength: run.transcriptLength + 1,
    toolPhase: phase,
  };
  return {
    context: { run: next },
    actions: [
      ...appendAll(context.sessionId, run, [entry]),
      ...startMessages(context, next, starting),
    ],
  };
};

/** A tool call finished and others remain: records it, starts what may start now. */
export const recordToolResult: RunStep = (context, event) => {
  const { run } = context;
  const after = phaseAfterResult(run, event);
  if (run === undefined || after === undefined) return {};
  const next: ActiveRun = { ...run, toolPhase: after.phase };
  return { context: { run: next }, actions: startMessages(context, next, after.starting) };
};

/**
 * The last result of the response arrived: appends one `tool` entry per call
 * in the model's order, then (a safe point) the pending steers, and moves to
 * the next model call.
 */
export const finishTools: RunStep = (context, event) => {
  const { run } = context;
  const after = phaseAfterResult(run, event);
  if (run === undefined || after === undefined) return {};
  const entries = [...toolResultEntries(run.runId, after.phase), ...steerEntries(run)];
  const next: ActiveRun = {
    ...run,
    modelCalls: run.modelCalls + 1,
    retry: 1,
    transcriptLength: run.transcriptLength + entries.length,
    pendingSteers: [],
    steersApplied: run.steersApplied + run.pendingSteers.length,
    toolPhase: undefined,
  };
  return { context: { run: next }, actions: appendAll(context.sessionId, run, entries) };
};

/**
 * `run.cancel` while tools run: `tool.cancel` to every call still running,
 * a `cancelled` result for every call without one (so no tool call is left
 * without a result in the transcript), then the run ends cancelled.
 */
export const cancelTools: RunStep = (context, event) => {
  const { run } = context;
  if (run?.toolPhase === undefined) return {};
  const { phase, running } = cancelToolPhase(run.toolPhase);
  const cancels = running.map(({ toolCallId }) => {
    const payload: ToolCancel = { runId: run.runId, toolCallId };
    const to = toolAddressOf(context.sessionId, run.runId, toolCallId);
    return sendMessage({ to, type: "tool.cancel", payload });
  });
  const reason = event.type === "run.cancel" ? event.reason : undefined;
  const cancelled = emitEvent("run.cancelled", {
    runId: run.runId,
    usage: run.usage,
    ...(reason === undefined ? {} : { reason }),
  });
  const ended = finish(context, run, "cancelled", toolResultEntries(run.runId, phase), cancelled);
  return { ...ended, actions: [...cancels, ...(ended.actions ?? [])] };
};
