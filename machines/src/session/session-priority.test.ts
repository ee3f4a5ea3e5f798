import { describe, expect, it } from "vitest";
import { emitEvent, sendMessage } from "@troupe/protocol";
import { newRunActor, runStart, runStep } from "../testing/run-kit.js";
import { answeredWithTools, readCall } from "../testing/run-tool-kit.js";
import {
  newSession,
  runFinished,
  sessionStep,
  sessionSteps,
  userMessage,
} from "../testing/session-kit.js";

// docs/decisions/0057: the scheduling class travels user.message → queued
// message → run.start (payload and send) → run.started, and the run gives it to
// its model calls and tool calls.

const runStartOf = (actions: readonly { type: string; params?: unknown }[]) =>
  actions.find(
    (action) =>
      action.type === "troupe.send" && (action.params as { type?: string }).type === "run.start",
  );

describe("session and run: the scheduling class of a message", () => {
  it("an interactive user.message starts an interactive run: run.start and run.started carry it", () => {
    const { actions } = sessionStep(
      newSession(),
      userMessage("m1", { text: "now, please", priority: "interactive" }),
    );
    expect(runStartOf(actions)).toEqual(
      sendMessage({
        to: "run/s1",
        type: "run.start",
        priority: "interactive",
        payload: {
          runId: "r1",
          sessionId: "s1",
          maxModelCalls: 50,
          transcriptLength: 1,
          priority: "interactive",
        },
      }),
    );
    expect(actions.at(-1)).toEqual(
      emitEvent("run.started", { runId: "r1", messageId: "m1", priority: "interactive" }),
    );
  });

  it("a queued batch message keeps its class when an interactive run's end starts it", () => {
    const queued = sessionSteps(
      newSession(),
      userMessage("m1", { text: "now", priority: "interactive" }),
      userMessage("m2", { text: "later", priority: "batch" }),
    );
    expect(queued.snapshot.context.queue).toEqual([
      expect.objectContaining({ messageId: "m2", priorityClass: "batch" }),
    ]);
    const next = sessionStep(
      queued.snapshot,
      runFinished({ runId: "r1", outcome: "completed", transcriptLength: 2, steersApplied: 0 }),
    );
    const start = runStartOf(next.actions);
    expect(start?.params).toMatchObject({ priority: "batch", payload: { priority: "batch" } });
    expect(next.actions.at(-1)).toEqual(
      emitEvent("run.started", { runId: "r2", messageId: "m2", priority: "batch" }),
    );
  });

  it("a default message records no class and sends run.start as default (not the class of what freed the session)", () => {
    const queued = sessionSteps(
      newSession(),
      userMessage("m1", { text: "now", priority: "interactive" }),
      userMessage("m2", { text: "whenever", priority: "default" }),
    );
    expect(queued.snapshot.context.queue[0]).not.toHaveProperty("priorityClass");
    const next = sessionStep(
      queued.snapshot,
      runFinished({ runId: "r1", outcome: "completed", transcriptLength: 2, steersApplied: 0 }),
    );
    const params = runStartOf(next.actions)?.params as
      { priority?: unknown; payload: Record<string, unknown> } | undefined;
    expect(params?.priority).toBe("default");
    expect(params?.payload).not.toHaveProperty("priority");
    expect(next.actions.at(-1)).toEqual(emitEvent("run.started", { runId: "r2", messageId: "m2" }));
  });

  it("a batch run asks for its model calls and tool calls as batch; a default run names no class", () => {
    const batch = runStep(newRunActor(), runStart({ priority: "batch" }));
    expect(batch.snapshot.context.run?.priority).toBe("batch");
    const modelCall = batch.actions.find((action) => action.type === "troupe.effect");
    expect(modelCall?.params).toMatchObject({ effect: "model.call", priority: "batch" });

    const tools = answeredWithTools([readCall("c1")], runStart({ priority: "batch" }));
    const toolStart = tools.actions.find(
      (action) =>
        action.type === "troupe.send" && (action.params as { type?: string }).type === "tool.start",
    );
    expect(toolStart?.params).toMatchObject({ type: "tool.start", priority: "batch" });

    const plain = runStep(newRunActor(), runStart());
    const plainCall = plain.actions.find((action) => action.type === "troupe.effect");
    expect(plainCall?.params).toMatchObject({ effect: "model.call" });
    expect(plainCall?.params).not.toHaveProperty("priority");
  });
});
