import { describe, expect, it } from "vitest";
import { sendMessage } from "../host-actions/host-action-creators.js";
import {
  modelCallCompleted,
  modelOutput,
  newRunActor,
  runStart,
  runStep,
  runSteps,
} from "../testing/run-kit.js";
import { newSession, runFinished, sessionStep, userMessage } from "../testing/session-kit.js";

const metadata = { parentSessionId: "root", parentToolActor: "tool/t1", depth: 1 };

describe("session: a subagent's session", () => {
  it("the first user.message's metadata makes it a sub-session; run.start carries parentSessionId", () => {
    const { snapshot, actions } = sessionStep(
      newSession("sub-1"),
      userMessage("m1", { text: "task", agent: "a--b", clientMessageId: "t1", metadata }),
    );
    expect(snapshot.context.parent).toEqual({ sessionId: "root", toolActor: "tool/t1" });
    expect(actions).toContainEqual(
      sendMessage({
        to: "run/sub-1",
        type: "run.start",
        payload: {
          runId: "r1",
          sessionId: "sub-1",
          agent: "a--b",
          maxModelCalls: 50,
          transcriptLength: 1,
          parentSessionId: "root",
        },
      }),
    );
  });

  it("run.finished: subagent.finished with outcome and text to the parent tool actor", () => {
    const running = sessionStep(
      newSession("sub-1"),
      userMessage("m1", { text: "task", metadata }),
    ).snapshot;
    const { snapshot, actions } = sessionStep(
      running,
      runFinished(
        { runId: "r1", outcome: "completed", transcriptLength: 2, steersApplied: 0, text: "done" },
        "run/sub-1:out:4.0",
      ),
    );
    expect(snapshot.value).toBe("idle");
    expect(actions).toContainEqual(
      sendMessage({
        to: "tool/t1",
        type: "subagent.finished",
        payload: { sessionId: "sub-1", runId: "r1", outcome: "completed", text: "done" },
      }),
    );
  });

  it("an ordinary session sends no subagent.finished; metadata without a tool actor is ignored", () => {
    const running = sessionStep(
      newSession(),
      userMessage("m1", { text: "hi", metadata: { parentSessionId: "root" } }),
    ).snapshot;
    expect(running.context.parent).toBeUndefined();
    const { actions } = sessionStep(
      running,
      runFinished({ runId: "r1", outcome: "completed", transcriptLength: 2, steersApplied: 0 }),
    );
    expect(JSON.stringify(actions)).not.toContain("subagent.finished");
  });
});

describe("run: a subagent's run", () => {
  it("keeps parentSessionId, passes it to tool.start, and adds the text to run.finished", () => {
    const started = runStep(
      newRunActor("sub-1"),
      runStart({ sessionId: "sub-1", parentSessionId: "root" }),
    );
    expect(started.snapshot.context.parentSessionId).toBe("root");
    const { actions } = runSteps(
      started.snapshot,
      modelCallCompleted("r1.m1.a1", modelOutput("the answer")),
    );
    expect(actions).toContainEqual(
      sendMessage({
        to: "session/sub-1",
        type: "run.finished",
        payload: {
          runId: "r1",
          outcome: "completed",
          transcriptLength: 2,
          steersApplied: 0,
          text: "the answer",
        },
      }),
    );
    const tools = runStep(
      runStep(newRunActor("sub-1"), runStart({ sessionId: "sub-1", parentSessionId: "root" }))
        .snapshot,
      modelCallCompleted("r1.m1.a1", {
        ...modelOutput(""),
        toolCalls: [{ toolCallId: "c1", toolName: "lookup", input: "{}", effectClass: "read" }],
      }),
    );
    expect(JSON.stringify(tools.actions)).toContain('"parentSessionId":"root"');
  });
});
