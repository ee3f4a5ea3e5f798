import { describe, expect, it } from "vitest";
import { appendEntry, emitEvent, sendMessage } from "@troupe/protocol";
import { inboxEvent } from "../testing/inbox.js";
import {
  modelCallCompleted,
  modelOutput,
  newRunActor,
  runStart,
  runStep,
  runSteps,
} from "../testing/run-kit.js";
import {
  answeredWithTools,
  finishTools,
  nextModelCall,
  readCall,
  toolCancelOf,
  toolEntry,
  writeCall,
} from "../testing/run-tool-kit.js";
import { toolFinished } from "../testing/tool-kit.js";
import { CANCELLED_CONTENT } from "./tool-phase.js";

describe("run: steering and limits with tools", () => {
  it("steers wait for the safe point after the tool results, then reach the next model call", () => {
    const calls = [readCall("call_1")];
    const { snapshot, actions } = runSteps(
      newRunActor(),
      runStart(),
      inboxEvent("run.steer", { text: "in Celsius", runId: "r1" }, "st1"),
      modelCallCompleted("r1.m1.a1", modelOutput("Checking.", 10, 5, { toolCalls: calls })),
      inboxEvent("run.steer", { text: "and short" }, "st2"),
    );
    expect(actions).toEqual([]);
    expect(snapshot.context.run?.pendingSteers).toHaveLength(2);

    const next = runStep(snapshot, toolFinished("call_1"));
    expect(next.actions).toEqual([
      toolEntry(2, calls[0]!, "succeeded"),
      appendEntry({
        log: "transcript",
        key: "s1",
        index: 3,
        entry: { role: "user", text: "in Celsius", messageId: "st1" },
      }),
      appendEntry({
        log: "transcript",
        key: "s1",
        index: 4,
        entry: { role: "user", text: "and short", messageId: "st2" },
      }),
      nextModelCall("r1.m2.a1", { transcriptLength: 5, modelCallIndex: 2 }),
    ]);
    expect(next.snapshot.context.run).toMatchObject({ pendingSteers: [], steersApplied: 2 });
  });

  it("at maxModelCalls the call after the tools is made without tools, and tool calls in its answer are ignored", () => {
    const calls = [readCall("call_1")];
    const running = answeredWithTools(calls, runStart({ maxModelCalls: 1 })).snapshot;
    const final = runStep(running, toolFinished("call_1"));
    expect(final.actions.at(-1)).toEqual(
      nextModelCall("r1.m2.a1", { transcriptLength: 3, modelCallIndex: 2, withoutTools: true }),
    );
    const done = runStep(
      final.snapshot,
      modelCallCompleted(
        "r1.m2.a1",
        modelOutput("Sunny.", 20, 2, { toolCalls: [readCall("call_2")] }),
      ),
    );
    expect(done.snapshot.value).toBe("idle");
    expect(done.actions).toEqual([
      appendEntry({
        log: "transcript",
        key: "s1",
        index: 3,
        entry: { role: "assistant", text: "Sunny.", runId: "r1" },
      }),
      emitEvent("run.completed", {
        runId: "r1",
        text: "Sunny.",
        usage: { inputTokens: 30, outputTokens: 7 },
        transcriptLength: 4,
      }),
      sendMessage({
        to: "session/s1",
        type: "run.finished",
        payload: { runId: "r1", outcome: "completed", transcriptLength: 4, steersApplied: 0 },
      }),
    ]);
  });
});

describe("run: cancellation while tools run", () => {
  it("cancels running calls, records a cancelled result for every call without one, and ends the run", () => {
    const calls = [readCall("r_1"), writeCall("w1"), writeCall("w2"), readCall("r_2")];
    const running = finishTools(answeredWithTools(calls).snapshot, ["r_1"]).snapshot;
    const { snapshot, actions } = runStep(
      running,
      inboxEvent("run.cancel", { runId: "r1", reason: "user pressed stop" }, "session/s1:out:9.0"),
    );
    expect(snapshot.value).toBe("idle");
    expect(actions).toEqual([
      toolCancelOf("w1"),
      toolCancelOf("r_2"),
      toolEntry(2, calls[0]!, "succeeded"),
      toolEntry(3, calls[1]!, "cancelled", CANCELLED_CONTENT),
      toolEntry(4, calls[2]!, "cancelled", CANCELLED_CONTENT),
      toolEntry(5, calls[3]!, "cancelled", CANCELLED_CONTENT),
      emitEvent("run.cancelled", {
        runId: "r1",
        usage: { inputTokens: 10, outputTokens: 5 },
        reason: "user pressed stop",
        transcriptLength: 6,
      }),
      sendMessage({
        to: "session/s1",
        type: "run.finished",
        payload: { runId: "r1", outcome: "cancelled", transcriptLength: 6, steersApplied: 0 },
      }),
    ]);
    expect(snapshot.context).toEqual({ sessionId: "s1", lastRunId: "r1" });

    const late = runStep(snapshot, toolFinished("w1"));
    expect(late.actions).toEqual([]);
  });

  it("steers pending at the cancellation are not applied", () => {
    const running = answeredWithTools([readCall("call_1")]).snapshot;
    const { actions } = runSteps(
      running,
      inboxEvent("run.steer", { text: "x" }, "st1"),
      inboxEvent("run.cancel", {}, "session/s1:out:9.0"),
    );
    expect(actions.at(-1)).toEqual(
      sendMessage({
        to: "session/s1",
        type: "run.finished",
        payload: { runId: "r1", outcome: "cancelled", transcriptLength: 3, steersApplied: 0 },
      }),
    );
  });

  it("a run.cancel for another run is ignored", () => {
    const running = answeredWithTools([readCall("call_1")]).snapshot;
    const other = runStep(running, inboxEvent("run.cancel", { runId: "r0" }, "c1"));
    expect(other.actions).toEqual([]);
    expect(other.snapshot.value).toBe("runningTools");
  });
});
