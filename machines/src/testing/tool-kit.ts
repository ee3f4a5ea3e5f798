import { toolActorId } from "@troupe/protocol";
import type { SnapshotFrom } from "xstate";
import type { RunEvent } from "../run/run-events.js";
import type { ToolCallEvent } from "../tool/tool-call-events.js";
import { toolCallMachine } from "../tool/tool-call-machine.js";
import type { ModelToolCall, ToolExecuteOutput, ToolFinished, ToolStart } from "@troupe/protocol";
import { inboxEvent } from "./inbox.js";
import { sendEvent, startMachine, type PureStep } from "./pure-driver.js";

/** A tool call actor snapshot. */
export type ToolCallSnapshot = SnapshotFrom<typeof toolCallMachine>;

/** A fresh tool call actor `tool/<actorId>`. */
export function toolCallActorAt(actorId: string): ToolCallSnapshot {
  return startMachine(toolCallMachine, { address: { kind: "tool", id: actorId } }).snapshot;
}

/** A fresh tool call actor for call `toolCallId` of run r1 of session s1, unless overridden. */
export function newToolCallActor(toolCallId = "call_1", runId = "r1", sessionId = "s1") {
  return toolCallActorAt(toolActorId(sessionId, runId, toolCallId));
}

/** One pure transition of the tool call machine (through a JSON round trip of the snapshot). */
export function toolStep(
  snapshot: ToolCallSnapshot,
  event: ToolCallEvent,
): PureStep<typeof toolCallMachine> {
  return sendEvent(toolCallMachine, snapshot, event);
}

/** Feeds events one after another and returns the last step. */
export function toolSteps(
  snapshot: ToolCallSnapshot,
  ...events: ToolCallEvent[]
): PureStep<typeof toolCallMachine> {
  let step: PureStep<typeof toolCallMachine> = { snapshot, actions: [] };
  for (const event of events) step = toolStep(step.snapshot, event);
  return step;
}

/** `tool.start` of call `call_1` (`get_weather`, a read) of run r1 of session s1, unless overridden. */
export function toolStart(overrides: Partial<ToolStart> = {}) {
  const payload: ToolStart = {
    sessionId: "s1",
    runId: "r1",
    toolCallId: "call_1",
    toolName: "get_weather",
    input: '{"city":"Lisbon"}',
    effectClass: "read",
    ...overrides,
  };
  return inboxEvent("tool.start", payload, `run/s1:out:${payload.toolCallId}`);
}

/** `effect.completed` of the `tool.execute` effect. */
export function toolExecuted(output: ToolExecuteOutput | Record<string, unknown>): ToolCallEvent {
  return { type: "effect.completed", effectId: "execute", effect: "tool.execute", output };
}

/** `effect.failed` of the `tool.execute` effect (the handler crashed). */
export function toolExecuteFailed(code = "internal", message = "handler crashed"): ToolCallEvent {
  return {
    type: "effect.failed",
    effectId: "execute",
    effect: "tool.execute",
    error: { code, message, retryable: false },
  };
}

/** A tool call as the `model.call` handler reports it (`get_weather`, a read, unless overridden). */
export function modelToolCall(
  toolCallId: string,
  overrides: Partial<ModelToolCall> = {},
): ModelToolCall {
  return {
    toolCallId,
    toolName: "get_weather",
    input: `{"call":"${toolCallId}"}`,
    effectClass: "read",
    ...overrides,
  };
}

/** `tool.finished` from a tool call actor to the run actor. */
export function toolFinished(
  toolCallId: string,
  status: ToolFinished["status"] = "succeeded",
  content = `result of ${toolCallId}`,
  runId = "r1",
): RunEvent {
  return inboxEvent(
    "tool.finished",
    { runId, toolCallId, status, content },
    `tool/${toolCallId}:out:1`,
  );
}
