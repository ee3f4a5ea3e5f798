import { describe, expect, it } from "vitest";
import { emitEvent } from "@troupe/protocol";
import {
  modelCallCompleted,
  modelCallFailed,
  modelOutput,
  newRunActor,
  runStart,
  runStep,
  runSteps,
} from "../testing/run-kit.js";
import { finishTools, nextModelCall, writeCall } from "../testing/run-tool-kit.js";

const v1 = { hash: "1".repeat(64), version: "1" };
const v2 = { hash: "2".repeat(64), version: "2" };

describe("run: pinned agent definition", () => {
  it("keeps the definition its first model call reports and passes it to every later call, retries included", () => {
    const calling = runStep(newRunActor(), runStart()).snapshot;
    const answered = runStep(
      calling,
      modelCallCompleted(
        "r1.m1.a1",
        modelOutput("Let me pay.", 10, 5, { toolCalls: [writeCall("call_1")], definition: v1 }),
      ),
    );
    expect(answered.snapshot.context.run?.definition).toEqual(v1);
    const next = finishTools(answered.snapshot, ["call_1"]);
    expect(next.actions.at(-1)).toEqual(
      nextModelCall("r1.m2.a1", { transcriptLength: 3, modelCallIndex: 2, definition: v1 }),
    );
    // A retry of that call carries the same pin.
    const retried = runSteps(next.snapshot, modelCallFailed("r1.m2.a1", true), {
      type: "xstate.after.retryDelay.run.backoff",
    } as never);
    expect(retried.actions).toContainEqual(
      nextModelCall("r1.m2.a2", {
        transcriptLength: 3,
        modelCallIndex: 2,
        retry: 2,
        definition: v1,
      }),
    );
  });

  it("a later call's migration replaces the pin; run.completed names the definition and where it came from", () => {
    const calling = runStep(newRunActor(), runStart()).snapshot;
    const answered = runStep(
      calling,
      modelCallCompleted(
        "r1.m1.a1",
        modelOutput("Let me pay.", 10, 5, { toolCalls: [writeCall("call_1")], definition: v1 }),
      ),
    );
    const next = finishTools(answered.snapshot, ["call_1"]);
    const migrated = { ...v2, migratedFrom: v1 };
    const done = runStep(
      next.snapshot,
      modelCallCompleted("r1.m2.a1", modelOutput("Paid.", 10, 5, { definition: migrated })),
    );
    expect(done.actions).toContainEqual(
      emitEvent("run.completed", {
        runId: "r1",
        text: "Paid.",
        usage: { inputTokens: 20, outputTokens: 10 },
        transcriptLength: 4,
        definition: migrated,
      }),
    );
  });

  it("a handler that reports no definition (an earlier release) leaves the run unpinned", () => {
    const calling = runStep(newRunActor(), runStart()).snapshot;
    const done = runStep(calling, modelCallCompleted("r1.m1.a1", modelOutput("Hi.")));
    expect(done.actions).toContainEqual(
      emitEvent("run.completed", {
        runId: "r1",
        text: "Hi.",
        usage: { inputTokens: 10, outputTokens: 5 },
        transcriptLength: 2,
      }),
    );
  });
});
