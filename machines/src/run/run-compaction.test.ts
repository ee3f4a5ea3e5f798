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
import { newSession, sessionStep } from "../testing/session-kit.js";

const compaction = {
  text: "The user asked about Lisbon; it was sunny.",
  through: 4,
  tokensBefore: 900,
  tokensAfter: 120,
  reason: "budget" as const,
  model: "troupe.scripted:script",
  usage: { inputTokens: 800, outputTokens: 30 },
};

describe("run: context compaction (issue #19)", () => {
  it("a model call result with a compaction appends the summary before the answer and emits session.compacted", () => {
    const calling = runStep(newRunActor(), runStart({ transcriptLength: 6 })).snapshot;
    const { snapshot, actions } = runStep(
      calling,
      modelCallCompleted("r1.m1.a1", modelOutput("Still sunny.", 130, 4, { compaction })),
    );
    expect(snapshot.value).toBe("idle");
    expect(actions).toEqual([
      appendEntry({
        log: "transcript",
        key: "s1",
        index: 6,
        entry: {
          role: "summary",
          text: compaction.text,
          through: 4,
          tokensBefore: 900,
          tokensAfter: 120,
          runId: "r1",
          model: "troupe.scripted:script",
        },
      }),
      emitEvent("session.compacted", {
        sessionId: "s1",
        runId: "r1",
        summaryIndex: 6,
        through: 4,
        tokensBefore: 900,
        tokensAfter: 120,
        reason: "budget",
        model: "troupe.scripted:script",
        usage: { inputTokens: 800, outputTokens: 30 },
      }),
      appendEntry({
        log: "transcript",
        key: "s1",
        index: 7,
        entry: { role: "assistant", text: "Still sunny.", runId: "r1" },
      }),
      emitEvent("run.completed", {
        runId: "r1",
        text: "Still sunny.",
        usage: { inputTokens: 130, outputTokens: 4 },
        transcriptLength: 8,
      }),
      sendMessage({
        to: "session/s1",
        type: "run.finished",
        payload: { runId: "r1", outcome: "completed", transcriptLength: 8, steersApplied: 0 },
      }),
    ]);
    expect(snapshot.context.summaryIndex).toBe(6);
  });

  it("later model calls, in this run and the next, name the latest summary", () => {
    const { snapshot } = runSteps(
      newRunActor(),
      runStart({ transcriptLength: 6 }),
      modelCallCompleted("r1.m1.a1", modelOutput("Still sunny.", 130, 4, { compaction })),
    );
    const next = runStep(snapshot, runStart({ runId: "r2", transcriptLength: 9 }));
    expect(next.actions[0]).toMatchObject({
      params: { effect: "model.call", input: { transcriptLength: 9, summaryIndex: 6 } },
    });
  });

  it("a tool-calling answer that compacted puts the summary before the assistant entry", () => {
    const calling = runStep(newRunActor(), runStart({ transcriptLength: 6 })).snapshot;
    const toolCalls = [{ toolCallId: "c1", toolName: "weather", input: "{}" }];
    const { snapshot, actions } = runStep(
      calling,
      modelCallCompleted("r1.m1.a1", modelOutput("", 130, 4, { compaction, toolCalls })),
    );
    expect(snapshot.value).toBe("runningTools");
    const appended = actions
      .filter((action) => action.type === "troupe.append")
      .map((action) => (action.params as { index: number; entry: { role: string } }).entry.role);
    expect(appended).toEqual(["summary", "assistant"]);
    expect(snapshot.context.run?.transcriptLength).toBe(8);
  });

  it("run.compact makes the next model call compact (manual), once", () => {
    const idle = newRunActor();
    const marked = runStep(idle, inboxEvent("run.compact", {}, "session/s1:out:9.1")).snapshot;
    expect(marked.context.compactRequested).toBe(true);
    const started = runStep(marked, runStart({ transcriptLength: 5 }));
    expect(started.actions[0]).toMatchObject({
      params: { input: { compact: "manual", transcriptLength: 5 } },
    });
    const done = runStep(
      started.snapshot,
      modelCallCompleted("r1.m1.a1", modelOutput("ok", 1, 1, { compaction })),
    );
    expect(done.snapshot.context.compactRequested).toBe(false);
    const again = runStep(done.snapshot, runStart({ runId: "r2", transcriptLength: 8 }));
    expect(again.actions[0]).not.toMatchObject({ params: { input: { compact: "manual" } } });
  });

  it("a malformed compaction part fails the run instead of appending anything", () => {
    const { snapshot, actions } = runSteps(
      newRunActor(),
      runStart({ transcriptLength: 6 }),
      modelCallCompleted(
        "r1.m1.a1",
        modelOutput("x", 1, 1, { compaction: { ...compaction, through: 0 } }),
      ),
    );
    expect(snapshot.value).toBe("idle");
    expect(actions.some((action) => action.type === "troupe.append")).toBe(false);
    expect(actions.find((action) => action.type === "troupe.emit")).toMatchObject({
      params: { type: "run.failed", payload: { code: "invalid_model_output" } },
    });
  });
});

describe("session: session.compact (issue #19)", () => {
  it("is applied and forwarded to the run actor as run.compact, idle or running", () => {
    const { actions } = sessionStep(newSession(), inboxEvent("session.compact", {}, "m-c1"));
    expect(actions.map((action) => action.type)).toEqual(["troupe.emit", "troupe.send"]);
    expect(actions[0]).toMatchObject({
      params: {
        type: "command.settled",
        payload: { command: "session.compact", verdict: "applied" },
      },
    });
    expect(actions[1]).toEqual(sendMessage({ to: "run/s1", type: "run.compact", payload: {} }));
  });
});
