import { describe, expect, it } from "vitest";
import { emitEvent, sendMessage } from "@troupe/protocol";
import {
  modelCallCompleted,
  modelCallFailed,
  modelOutput,
  newRunActor,
  runStart,
  runStep,
  runSteps,
} from "../testing/run-kit.js";

const sessionWarning = {
  scope: "session",
  scopeId: "s1",
  unit: "tokens",
  spent: 850,
  limit: 1000,
  warnAt: 0.8,
} as const;
const dayWarning = {
  scope: "agent_day",
  scopeId: "assistant/2026-12-01",
  unit: "usd",
  spent: 4.1,
  limit: 5,
  warnAt: 0.8,
} as const;

describe("run: spend budgets (issue #19)", () => {
  it("each budget warning of a model call's result becomes a budget.warning before run.completed", () => {
    const { actions } = runSteps(
      newRunActor(),
      runStart(),
      modelCallCompleted(
        "r1.m1.a1",
        modelOutput("Done.", 800, 50, { budgetWarnings: [sessionWarning, dayWarning] }),
      ),
    );
    expect(actions.map((action) => action.type)).toEqual([
      "troupe.emit",
      "troupe.emit",
      "troupe.append",
      "troupe.emit",
      "troupe.send",
    ]);
    expect(actions[0]).toEqual(emitEvent("budget.warning", { runId: "r1", ...sessionWarning }));
    expect(actions[1]).toEqual(emitEvent("budget.warning", { runId: "r1", ...dayWarning }));
    expect(actions[3]).toMatchObject({ params: { type: "run.completed" } });
  });

  it("a warning with tool calls comes before the tool calls start; the run goes on", () => {
    const { snapshot, actions } = runSteps(
      newRunActor(),
      runStart(),
      modelCallCompleted(
        "r1.m1.a1",
        modelOutput("", 800, 50, {
          budgetWarnings: [sessionWarning],
          toolCalls: [{ toolCallId: "c1", toolName: "lookup", input: "{}" }],
        }),
      ),
    );
    expect(snapshot.value).toBe("runningTools");
    expect(actions[0]).toEqual(emitEvent("budget.warning", { runId: "r1", ...sessionWarning }));
    expect(actions.slice(1).some((action) => action.type === "troupe.emit")).toBe(false);
  });

  it("a result without warnings, and a stale result, emit no budget.warning", () => {
    const plain = runSteps(
      newRunActor(),
      runStart(),
      modelCallCompleted("r1.m1.a1", modelOutput("Hi")),
    );
    expect(plain.actions.filter((action) => action.type === "troupe.emit")).toHaveLength(1);
    const calling = runStep(newRunActor(), runStart()).snapshot;
    const stale = runStep(
      calling,
      modelCallCompleted(
        "r0.m1.a1",
        modelOutput("old", 1, 1, { budgetWarnings: [sessionWarning] }),
      ),
    );
    expect(stale.actions).toEqual([]);
    expect(stale.snapshot.value).toBe("calling");
  });

  it("a budget_exceeded refusal ends the run with run.failed before any model output, without a retry", () => {
    const { snapshot, actions } = runSteps(
      newRunActor(),
      runStart(),
      modelCallFailed("r1.m1.a1", false, "budget_exceeded"),
    );
    expect(snapshot.value).toBe("idle");
    expect(actions).toEqual([
      emitEvent("run.failed", {
        runId: "r1",
        code: "budget_exceeded",
        message: "budget_exceeded from the provider",
        transcriptLength: 1,
      }),
      sendMessage({
        to: "session/s1",
        type: "run.finished",
        payload: { runId: "r1", outcome: "failed", transcriptLength: 1, steersApplied: 0 },
      }),
    ]);
  });
});
