import { describe, expect, it } from "vitest";
import { appendEntry, emitEvent, requestEffect, sendMessage } from "@troupe/protocol";
import { inboxEvent } from "../testing/inbox.js";
import {
  modelCallCompleted,
  modelOutput,
  newRunActor,
  runStart,
  runStep,
  runSteps,
} from "../testing/run-kit.js";
import { INVALID_MODEL_OUTPUT_CODE } from "./run-events.js";

const modelCall = (effectId: string, input: Record<string, unknown>) =>
  requestEffect({
    effect: "model.call",
    effectId,
    input: { sessionId: "s1", runId: "r1", withoutTools: false, ...input },
  });
const steer = (text: string, messageId: string, runId: string | undefined = "r1") =>
  inboxEvent("run.steer", runId === undefined ? { text } : { text, runId }, messageId);

describe("run: a run that answers", () => {
  it("run.start requests the first model call with the run's settings", () => {
    const { snapshot, actions } = runStep(
      newRunActor(),
      runStart({ agent: "assistant", model: "openai:gpt-4o-mini", transcriptLength: 3 }),
    );
    expect(snapshot.value).toBe("calling");
    expect(actions).toEqual([
      modelCall("r1.m1.a1", {
        agent: "assistant",
        model: "openai:gpt-4o-mini",
        transcriptLength: 3,
        modelCallIndex: 1,
        retry: 1,
      }),
    ]);
    expect(snapshot.context.run).toMatchObject({ runId: "r1", modelCalls: 1, retry: 1 });
  });

  it("the answer is appended, reported with its usage, and the session told", () => {
    const calling = runStep(newRunActor(), runStart()).snapshot;
    const { snapshot, actions } = runStep(
      calling,
      modelCallCompleted("r1.m1.a1", modelOutput("Sunny, 19 °C.", 12, 7, { toolCalls: [] })),
    );
    expect(snapshot.value).toBe("idle");
    expect(actions).toEqual([
      appendEntry({
        log: "transcript",
        key: "s1",
        index: 1,
        entry: { role: "assistant", text: "Sunny, 19 °C.", runId: "r1" },
      }),
      emitEvent("run.completed", {
        runId: "r1",
        text: "Sunny, 19 °C.",
        usage: { inputTokens: 12, outputTokens: 7 },
        transcriptLength: 2,
      }),
      sendMessage({
        to: "session/s1",
        type: "run.finished",
        payload: { runId: "r1", outcome: "completed", transcriptLength: 2, steersApplied: 0 },
      }),
    ]);
    expect(snapshot.context).toEqual({ sessionId: "s1", lastRunId: "r1" });
  });

  it("an empty answer completes the run without a transcript entry", () => {
    const { actions } = runSteps(
      newRunActor(),
      runStart(),
      modelCallCompleted("r1.m1.a1", modelOutput("")),
    );
    expect(actions.map((action) => action.type)).toEqual(["troupe.emit", "troupe.send"]);
    expect(actions[1]).toEqual(
      sendMessage({
        to: "session/s1",
        type: "run.finished",
        payload: { runId: "r1", outcome: "completed", transcriptLength: 1, steersApplied: 0 },
      }),
    );
  });

  it("a malformed model output fails the run instead of throwing", () => {
    const { snapshot, actions } = runSteps(
      newRunActor(),
      runStart(),
      modelCallCompleted("r1.m1.a1", { text: 42 }),
    );
    expect(snapshot.value).toBe("idle");
    expect(actions[0]).toEqual(
      emitEvent("run.failed", {
        runId: "r1",
        code: INVALID_MODEL_OUTPUT_CODE,
        message: "model.call returned an output without text, finishReason and usage",
        transcriptLength: 1,
      }),
    );
  });

  it("results of other effects are ignored", () => {
    const calling = runStep(newRunActor(), runStart()).snapshot;
    const stale = runStep(calling, modelCallCompleted("r0.m1.a1", modelOutput("old")));
    expect(stale.actions).toEqual([]);
    expect(stale.snapshot.value).toBe("calling");
    expect(stale.snapshot.context).toEqual(calling.context);
    const idle = runStep(newRunActor(), modelCallCompleted("r1.m1.a1", modelOutput("late")));
    expect(idle.actions).toEqual([]);
    expect(idle.snapshot.value).toBe("idle");
  });

  it("run.start for another session, a repeat of the last run, or during a run is ignored", () => {
    expect(runStep(newRunActor(), runStart({ sessionId: "s2" })).snapshot.value).toBe("idle");
    const done = runSteps(
      newRunActor(),
      runStart(),
      modelCallCompleted("r1.m1.a1", modelOutput("ok")),
    ).snapshot;
    const repeated = runStep(done, runStart());
    expect(repeated.actions).toEqual([]);
    expect(repeated.snapshot.value).toBe("idle");
    const busy = runStep(newRunActor(), runStart()).snapshot;
    const second = runStep(busy, runStart({ runId: "r2" }));
    expect(second.actions).toEqual([]);
    expect(second.snapshot.context.run?.runId).toBe("r1");
  });
});

describe("run: steering", () => {
  it("a steer waits for the safe point after the model call, then the model is called again", () => {
    const steered = runSteps(
      newRunActor(),
      runStart(),
      steer("in Celsius", "st1"),
      steer("and short", "st2", undefined),
    );
    expect(steered.actions).toEqual([]);
    expect(steered.snapshot.context.run?.pendingSteers).toHaveLength(2);

    const again = runStep(
      steered.snapshot,
      modelCallCompleted("r1.m1.a1", modelOutput("It is 66 °F", 10, 4)),
    );
    expect(again.snapshot.value).toBe("calling");
    expect(again.actions).toEqual([
      appendEntry({
        log: "transcript",
        key: "s1",
        index: 1,
        entry: { role: "assistant", text: "It is 66 °F", runId: "r1" },
      }),
      appendEntry({
        log: "transcript",
        key: "s1",
        index: 2,
        entry: { role: "user", text: "in Celsius", messageId: "st1" },
      }),
      appendEntry({
        log: "transcript",
        key: "s1",
        index: 3,
        entry: { role: "user", text: "and short", messageId: "st2" },
      }),
      modelCall("r1.m2.a1", { transcriptLength: 4, modelCallIndex: 2, retry: 1 }),
    ]);

    const done = runStep(
      again.snapshot,
      modelCallCompleted("r1.m2.a1", modelOutput("19 °C", 30, 2)),
    );
    expect(done.actions).toContainEqual(
      emitEvent("run.completed", {
        runId: "r1",
        text: "19 °C",
        usage: { inputTokens: 40, outputTokens: 6 },
        transcriptLength: 5,
      }),
    );
    expect(done.actions).toContainEqual(
      sendMessage({
        to: "session/s1",
        type: "run.finished",
        payload: { runId: "r1", outcome: "completed", transcriptLength: 5, steersApplied: 2 },
      }),
    );
  });

  it("a steer for another run, or with no run, is ignored", () => {
    const calling = runStep(newRunActor(), runStart()).snapshot;
    expect(runStep(calling, steer("x", "st1", "r0")).snapshot.context).toEqual(calling.context);
    const idle = runStep(newRunActor(), steer("x", "st1"));
    expect(idle.actions).toEqual([]);
    expect(idle.snapshot.context.run).toBeUndefined();
  });

  it("past maxModelCalls the model is called once more without tools, and that answer ends the run", () => {
    const first = runSteps(
      newRunActor(),
      runStart({ maxModelCalls: 1 }),
      steer("more detail", "st1"),
    ).snapshot;
    const final = runStep(first, modelCallCompleted("r1.m1.a1", modelOutput("short")));
    expect(final.actions.at(-1)).toEqual(
      modelCall("r1.m2.a1", {
        transcriptLength: 3,
        modelCallIndex: 2,
        retry: 1,
        withoutTools: true,
      }),
    );
    const ignoredSteer = runStep(final.snapshot, steer("even more", "st2")).snapshot;
    const done = runStep(ignoredSteer, modelCallCompleted("r1.m2.a1", modelOutput("long")));
    expect(done.snapshot.value).toBe("idle");
    expect(done.actions).toContainEqual(
      sendMessage({
        to: "session/s1",
        type: "run.finished",
        payload: { runId: "r1", outcome: "completed", transcriptLength: 4, steersApplied: 1 },
      }),
    );
  });
});
