import {
  AGENT_RESOLVE_EFFECT,
  EFFECT_ACTION,
  MODEL_CALL_EFFECT,
  TOOL_EXECUTE_EFFECT,
  agentResolveInputSchema,
  modelCallInputSchema,
  toolExecuteInputSchema,
  type EffectRequestParams,
} from "@troupe/protocol";
import { describe, expect, it } from "vitest";
import type { RequestedAction } from "./testing/pure-driver.js";
import {
  modelCallCompleted,
  modelOutput,
  newRunActor,
  runStart,
  runStep,
} from "./testing/run-kit.js";
import { newSession, sessionTransition, userMessage } from "./testing/session-kit.js";
import { modelToolCall, newToolCallActor, toolStart, toolStep } from "./testing/tool-kit.js";

/** The `troupe.effect` requests among `actions`, after a JSON round trip (as the host stores them). */
function requests(actions: readonly RequestedAction[]): EffectRequestParams[] {
  return actions
    .filter((action) => action.type === EFFECT_ACTION)
    .map((action) => JSON.parse(JSON.stringify(action.params)) as EffectRequestParams);
}

// The machines request effects whose handlers live in @troupe/agents. Both sides
// use the protocol's schemas; these tests pin that what a machine requests is
// exactly what the handler's schema accepts, with nothing dropped or defaulted.
describe("the effects the machines request match the protocol's effect schemas", () => {
  it("every model.call the run machine requests parses unchanged with modelCallInputSchema", () => {
    const start = runStart({
      agent: "assistant",
      model: "openai:gpt-4o-mini",
      maxModelCalls: 1,
      toolPolicy: { ask: ["send_*"], deny: ["wipe"] },
      parentSessionId: "parent-1",
    });
    const calling = runStep(newRunActor(), start);
    const withTools = modelOutput("checking", 1, 1, { toolCalls: [modelToolCall("c1")] });
    const answered = runStep(calling.snapshot, modelCallCompleted("r1.m1.a1", withTools));
    // maxModelCalls 1: once the tool call finished, the final call goes without tools.
    const final = runStep(answered.snapshot, {
      type: "tool.finished",
      runId: "r1",
      toolCallId: "c1",
      status: "succeeded",
      content: "sunny",
      messageId: "tool/c1:out:1",
      timestampMs: 0,
    });
    const made = [...requests(calling.actions), ...requests(final.actions)];
    expect(made.map((request) => request.effect)).toEqual([MODEL_CALL_EFFECT, MODEL_CALL_EFFECT]);
    expect(
      made.map((request) => (request.input as { withoutTools: boolean }).withoutTools),
    ).toEqual([false, true]);
    for (const request of made) {
      expect(modelCallInputSchema.parse(request.input)).toEqual(request.input);
    }
    expect(made[0]?.input).toMatchObject({
      agent: "assistant",
      model: "openai:gpt-4o-mini",
      toolPolicy: { ask: ["send_*"], deny: ["wipe"] },
      parentSessionId: "parent-1",
    });
  });

  it("the tool.execute the tool call machine requests parses unchanged with toolExecuteInputSchema", () => {
    const { actions } = toolStep(
      newToolCallActor(),
      toolStart({ effectClass: "non_idempotent_write", agent: "assistant" }),
    );
    const [request] = requests(actions);
    expect(request?.effect).toBe(TOOL_EXECUTE_EFFECT);
    expect(toolExecuteInputSchema.parse(request?.input)).toEqual(request?.input);
    expect(request?.input).toMatchObject({ agent: "assistant", idempotencyKey: "s1/r1/call_1" });
  });

  it("the agent.resolve the session machine requests parses unchanged with agentResolveInputSchema", () => {
    for (const agent of ["assistant", "boss--helper", undefined]) {
      const message = userMessage("m1", { text: "hi", ...(agent === undefined ? {} : { agent }) });
      const [request] = requests(sessionTransition(newSession(), message).actions);
      expect(request?.effect).toBe(AGENT_RESOLVE_EFFECT);
      expect(agentResolveInputSchema.parse(request?.input)).toEqual(request?.input);
      expect(request?.input).toEqual(agent === undefined ? {} : { agent });
    }
  });
});
