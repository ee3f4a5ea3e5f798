import { toolActorId, appendEntry, requestEffect, sendMessage } from "@troupe/protocol";
import type { ModelToolCall, ToolCallStatus, ToolFinished, ToolStart } from "@troupe/protocol";
import {
  modelCallCompleted,
  modelOutput,
  newRunActor,
  runStart,
  runStep,
  runSteps,
  type RawModelToolCall,
  type RunSnapshot,
} from "./run-kit.js";
import { modelToolCall, toolFinished } from "./tool-kit.js";

// Helpers for the run machine's tool phase tests (run r1 of session s1).

/** A `read` call of `get_weather`. */
export const readCall = (id: string) => modelToolCall(id);

/** A write call of `send_email` (`idempotent_write` unless given). */
export const writeCall = (
  id: string,
  effectClass: ModelToolCall["effectClass"] = "idempotent_write",
) => modelToolCall(id, { toolName: "send_email", effectClass });

/** The run after its first model call (usage 10 + 5) answered "Let me check." and asked for `calls`. */
export function answeredWithTools(calls: readonly RawModelToolCall[], start = runStart()) {
  const calling = runStep(newRunActor(), start).snapshot;
  return runStep(
    calling,
    modelCallCompleted("r1.m1.a1", modelOutput("Let me check.", 10, 5, { toolCalls: calls })),
  );
}

/** The `tool.start` the run sends for `call`. */
export const toolStartOf = (call: ModelToolCall, extra: Partial<ToolStart> = {}) =>
  sendMessage({
    to: `tool/${toolActorId("s1", "r1", call.toolCallId)}`,
    type: "tool.start",
    payload: {
      sessionId: "s1",
      runId: "r1",
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      input: call.input,
      effectClass: call.effectClass,
      ...extra,
    },
  });

/** The `tool.cancel` the run sends for call `toolCallId`. */
export const toolCancelOf = (toolCallId: string) =>
  sendMessage({
    to: `tool/${toolActorId("s1", "r1", toolCallId)}`,
    type: "tool.cancel",
    payload: { runId: "r1", toolCallId },
  });

/** The append of the `tool` entry of `call` at `index` (content as `toolFinished` makes it unless given). */
export const toolEntry = (
  index: number,
  call: ModelToolCall,
  status: ToolCallStatus,
  content = `result of ${call.toolCallId}`,
) =>
  appendEntry({
    log: "transcript",
    key: "s1",
    index,
    entry: {
      role: "tool",
      runId: "r1",
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      status,
      content,
    },
  });

/** The request of model call `effectId` (retry 1, with tools unless `input` says otherwise). */
export const nextModelCall = (effectId: string, input: Record<string, unknown>) =>
  requestEffect({
    effect: "model.call",
    effectId,
    input: { sessionId: "s1", runId: "r1", withoutTools: false, retry: 1, ...input },
  });

/** Feeds `tool.finished` results (status `succeeded` unless given) one after another. */
export const finishTools = (
  snapshot: RunSnapshot,
  ...results: [toolCallId: string, status?: ToolFinished["status"]][]
) => runSteps(snapshot, ...results.map(([id, status]) => toolFinished(id, status)));
