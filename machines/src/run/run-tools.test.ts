import { describe, expect, it } from "vitest";
import { appendEntry, emitEvent, sendMessage } from "@troupe/protocol";
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
  toolEntry,
  toolStartOf,
  writeCall,
} from "../testing/run-tool-kit.js";
import { toolFinished } from "../testing/tool-kit.js";
import { SKIPPED_CONTENT } from "./tool-phase.js";

describe("run: tool calls of a model response", () => {
  it("appends the answer with its tool calls and starts every read at once", () => {
    const calls = [readCall("call_1"), readCall("call_2")];
    const { snapshot, actions } = answeredWithTools(calls, runStart({ agent: "assistant" }));
    expect(snapshot.value).toBe("runningTools");
    expect(actions).toEqual([
      appendEntry({
        log: "transcript",
        key: "s1",
        index: 1,
        entry: {
          role: "assistant",
          text: "Let me check.",
          runId: "r1",
          toolCalls: calls.map(({ toolCallId, toolName, input }) => ({
            toolCallId,
            toolName,
            input,
          })),
        },
      }),
      toolStartOf(calls[0]!, { agent: "assistant" }),
      toolStartOf(calls[1]!, { agent: "assistant" }),
    ]);
    expect(snapshot.context.run).toMatchObject({
      transcriptLength: 2,
      usage: { inputTokens: 10, outputTokens: 5 },
      modelCalls: 1,
    });
  });

  it("appends every result in the model's order once all arrived, then calls the model again", () => {
    const calls = [readCall("call_1"), readCall("call_2")];
    const running = answeredWithTools(calls).snapshot;
    const first = runStep(running, toolFinished("call_2", "failed", "timeout"));
    expect(first.actions).toEqual([]);
    expect(first.snapshot.value).toBe("runningTools");

    const last = runStep(first.snapshot, toolFinished("call_1"));
    expect(last.snapshot.value).toBe("calling");
    expect(last.actions).toEqual([
      toolEntry(2, calls[0]!, "succeeded"),
      toolEntry(3, calls[1]!, "failed", "timeout"),
      nextModelCall("r1.m2.a1", { transcriptLength: 4, modelCallIndex: 2 }),
    ]);
    expect(last.snapshot.context.run?.toolPhase).toBeUndefined();

    const done = runStep(
      last.snapshot,
      modelCallCompleted("r1.m2.a1", modelOutput("Sunny, 19 °C.", 30, 6)),
    );
    expect(done.actions).toContainEqual(
      emitEvent("run.completed", {
        runId: "r1",
        text: "Sunny, 19 °C.",
        usage: { inputTokens: 40, outputTokens: 11 },
        transcriptLength: 5,
      }),
    );
    expect(done.actions.at(-1)).toEqual(
      sendMessage({
        to: "session/s1",
        type: "run.finished",
        payload: { runId: "r1", outcome: "completed", transcriptLength: 5, steersApplied: 0 },
      }),
    );
  });

  it("an answer with no text still records its tool calls", () => {
    const { actions } = runSteps(
      newRunActor(),
      runStart(),
      modelCallCompleted("r1.m1.a1", modelOutput("", 1, 1, { toolCalls: [readCall("call_1")] })),
    );
    expect(actions[0]).toEqual(
      appendEntry({
        log: "transcript",
        key: "s1",
        index: 1,
        entry: {
          role: "assistant",
          text: "",
          runId: "r1",
          toolCalls: [
            { toolCallId: "call_1", toolName: "get_weather", input: '{"call":"call_1"}' },
          ],
        },
      }),
    );
  });

  it("runs writes one at a time in the model's order", () => {
    const calls = [
      writeCall("w1"),
      writeCall("w2", "non_idempotent_write"),
      writeCall("w3", "unclassified"),
    ];
    const started = answeredWithTools(calls);
    expect(started.actions.slice(1)).toEqual([toolStartOf(calls[0]!)]);

    const second = runStep(started.snapshot, toolFinished("w1"));
    expect(second.actions).toEqual([toolStartOf(calls[1]!)]);
    const third = runStep(second.snapshot, toolFinished("w2"));
    expect(third.actions).toEqual([toolStartOf(calls[2]!)]);
    const next = runStep(third.snapshot, toolFinished("w3"));
    expect(next.snapshot.value).toBe("calling");
    expect(next.actions).toEqual([
      toolEntry(2, calls[0]!, "succeeded"),
      toolEntry(3, calls[1]!, "succeeded"),
      toolEntry(4, calls[2]!, "succeeded"),
      nextModelCall("r1.m2.a1", { transcriptLength: 5, modelCallIndex: 2 }),
    ]);
  });

  it("a call without an effect class is unclassified, so it waits its turn as a write", () => {
    const calls = [
      { toolCallId: "w1", toolName: "deploy", input: "{}" },
      { toolCallId: "w2", toolName: "deploy", input: "{}" },
    ];
    const { actions } = answeredWithTools(calls);
    expect(actions.slice(1)).toEqual([toolStartOf({ ...calls[0]!, effectClass: "unclassified" })]);
  });

  it.each(["failed", "invalid_arguments", "outcome_unknown"] as const)(
    "once a write ends %s, the later writes of the response are skipped",
    (status) => {
      const calls = [writeCall("w1"), writeCall("w2"), writeCall("w3"), writeCall("w4")];
      const { snapshot, actions } = finishTools(
        answeredWithTools(calls).snapshot,
        ["w1"],
        ["w2", status],
      );
      expect(snapshot.value).toBe("calling");
      expect(actions).toEqual([
        toolEntry(2, calls[0]!, "succeeded"),
        toolEntry(3, calls[1]!, status),
        toolEntry(4, calls[2]!, "skipped", SKIPPED_CONTENT),
        toolEntry(5, calls[3]!, "skipped", SKIPPED_CONTENT),
        nextModelCall("r1.m2.a1", { transcriptLength: 6, modelCallIndex: 2 }),
      ]);
    },
  );

  it("reads run beside the write chain; a failed write does not skip reads", () => {
    const calls = [
      readCall("r_1"),
      writeCall("w1"),
      readCall("r_2"),
      writeCall("w2"),
      readCall("r_3"),
    ];
    const started = answeredWithTools(calls);
    expect(started.actions.slice(1)).toEqual([
      toolStartOf(calls[0]!),
      toolStartOf(calls[1]!),
      toolStartOf(calls[2]!),
      toolStartOf(calls[4]!),
    ]);

    const afterWrite = runStep(started.snapshot, toolFinished("w1", "failed"));
    expect(afterWrite.actions).toEqual([]);
    expect(afterWrite.snapshot.context.run?.toolPhase?.calls[3]?.result?.status).toBe("skipped");

    const { snapshot, actions } = finishTools(afterWrite.snapshot, ["r_3"], ["r_1"], ["r_2"]);
    expect(snapshot.value).toBe("calling");
    expect(actions).toEqual([
      toolEntry(2, calls[0]!, "succeeded"),
      toolEntry(3, calls[1]!, "failed"),
      toolEntry(4, calls[2]!, "succeeded"),
      toolEntry(5, calls[3]!, "skipped", SKIPPED_CONTENT),
      toolEntry(6, calls[4]!, "succeeded"),
      nextModelCall("r1.m2.a1", { transcriptLength: 7, modelCallIndex: 2 }),
    ]);
  });

  it("results that do not match a waiting call of the current response are ignored", () => {
    const running = answeredWithTools([writeCall("w1"), writeCall("w2")]).snapshot;
    for (const stray of [
      toolFinished("w1", "succeeded", "x", "r0"), // another run
      toolFinished("w9"), // not a call of this response
      toolFinished("w2"), // not started yet
    ]) {
      const step = runStep(running, stray);
      expect(step.actions).toEqual([]);
      expect(step.snapshot.context).toEqual(running.context);
    }
    const second = runStep(running, toolFinished("w1")).snapshot;
    const repeated = runStep(second, toolFinished("w1", "failed"));
    expect(repeated.actions).toEqual([]);
    expect(repeated.snapshot.context).toEqual(second.context);
    expect(runStep(newRunActor(), toolFinished("w1")).actions).toEqual([]);
  });

  it("malformed tool calls fail the run", () => {
    for (const toolCalls of [
      [{ toolCallId: "c1", toolName: "x", input: { city: "Lisbon" } }],
      [{ toolCallId: "", toolName: "x", input: "{}" }],
      [{ toolCallId: "c1", toolName: "x", input: "{}", effectClass: "write" }],
      [{ toolCallId: "c1", toolName: "x", input: "{}", decision: "maybe" }],
      [{ toolCallId: "c1", toolName: "x", input: "{}", decision: "ask", approvalTimeoutMs: 0 }],
      [readCall("c1"), readCall("c1")],
      "c1",
    ]) {
      const { snapshot, actions } = runSteps(
        newRunActor(),
        runStart(),
        modelCallCompleted("r1.m1.a1", { ...modelOutput("x"), toolCalls }),
      );
      expect(snapshot.value).toBe("idle");
      expect(actions[0]).toEqual(
        emitEvent("run.failed", {
          runId: "r1",
          code: "invalid_model_output",
          message:
            "model.call returned malformed toolCalls: each needs a toolCallId (1 to 256 characters, " +
            "distinct within the response), a toolName, the input as text, a known effectClass, " +
            "and a known decision (allow, ask, deny) and a whole approvalTimeoutMs ≥ 1 when present",
          transcriptLength: 1,
        }),
      );
    }
  });
});
