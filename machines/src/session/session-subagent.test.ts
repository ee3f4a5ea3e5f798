import { describe, expect, it } from "vitest";
import { toolActorId, emitEvent, sendMessage } from "@troupe/protocol";
import { inboxEvent } from "../testing/inbox.js";
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
        priority: "default",
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

  it("the metadata's parentRunId is kept in parent and carried by run.start (issue #19: the parent run's budget)", () => {
    const { snapshot, actions } = sessionStep(
      newSession("sub-1"),
      userMessage("m1", {
        text: "task",
        agent: "a--b",
        clientMessageId: "t1",
        metadata: { ...metadata, parentRunId: "r3" },
      }),
    );
    expect(snapshot.context.parent).toEqual({
      sessionId: "root",
      toolActor: "tool/t1",
      runId: "r3",
    });
    expect(actions).toContainEqual(
      sendMessage({
        to: "run/sub-1",
        type: "run.start",
        priority: "default",
        payload: {
          runId: "r1",
          sessionId: "sub-1",
          agent: "a--b",
          maxModelCalls: 50,
          transcriptLength: 1,
          parentSessionId: "root",
          parentRunId: "r3",
        },
      }),
    );
  });

  it("a parent without runId (a snapshot or message from before it existed) still starts its runs", () => {
    const running = sessionStep(
      newSession("sub-1"),
      userMessage("m1", { text: "task", metadata }),
    ).snapshot;
    // What an older snapshot's context holds: parent without runId.
    expect(running.context.parent).toEqual({ sessionId: "root", toolActor: "tool/t1" });
    expect(JSON.stringify(running.context)).not.toContain("parentRunId");
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
    // The model call's input names the parent: its deltas go to the parent's subjects.
    expect(JSON.stringify(started.actions)).toContain('"parentSessionId":"root"');
    expect(
      JSON.stringify(runStep(newRunActor("s1"), runStart({ sessionId: "s1" })).actions),
    ).not.toContain("parentSessionId");
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

  it("keeps parentRunId from run.start and passes it to every model.call (issue #19)", () => {
    const started = runStep(
      newRunActor("sub-1"),
      runStart({ sessionId: "sub-1", parentSessionId: "root", parentRunId: "r3" }),
    );
    expect(started.snapshot.context.parentRunId).toBe("r3");
    expect(JSON.stringify(started.actions)).toContain('"parentRunId":"r3"');
    const next = runStep(
      started.snapshot,
      modelCallCompleted("r1.m1.a1", {
        ...modelOutput(""),
        toolCalls: [{ toolCallId: "c1", toolName: "lookup", input: "{}", effectClass: "read" }],
      }),
    );
    expect(next.snapshot.context.parentRunId).toBe("r3");
    const withoutIt = runStep(
      newRunActor("sub-1"),
      runStart({ sessionId: "sub-1", parentSessionId: "root" }),
    );
    expect(JSON.stringify(withoutIt.actions)).not.toContain("parentRunId");
  });
});

describe("session: tool messages naming a subagent's session", () => {
  const parentRunning = () =>
    sessionStep(newSession("s1"), userMessage("m1", { text: "hi" })).snapshot;

  it("forwards tool.approve / tool.deny / question.answer with a sub- sessionId to that session", () => {
    const approve = inboxEvent(
      "tool.approve",
      { toolCallId: "c1", note: "ok", sessionId: "sub-t1" },
      "m-a",
    );
    expect(sessionStep(parentRunning(), approve).actions).toEqual([
      sendMessage({
        to: "session/sub-t1",
        type: "tool.approve",
        payload: { toolCallId: "c1", note: "ok", sessionId: "sub-t1", commandId: "m-a" },
      }),
    ]);
    const deny = inboxEvent("tool.deny", { toolCallId: "c1", sessionId: "sub-t1" }, "m-d");
    expect(sessionStep(parentRunning(), deny).actions).toEqual([
      sendMessage({
        to: "session/sub-t1",
        type: "tool.deny",
        payload: { toolCallId: "c1", sessionId: "sub-t1", commandId: "m-d" },
      }),
    ]);
    const answer = inboxEvent(
      "question.answer",
      { questionId: "c2", text: "Lisbon", sessionId: "sub-t1" },
      "m-q",
    );
    expect(sessionStep(newSession("s1"), answer).actions).toEqual([
      sendMessage({
        to: "session/sub-t1",
        type: "question.answer",
        payload: { questionId: "c2", text: "Lisbon", sessionId: "sub-t1", commandId: "m-q" },
      }),
    ]);
  });

  it("the subagent's session settles a message naming itself with its own run's tool call, keeping the original command id", () => {
    const child = sessionStep(
      newSession("sub-t1"),
      userMessage("m1", { text: "task", metadata }),
    ).snapshot;
    const approve = inboxEvent(
      "tool.approve",
      { toolCallId: "c1", sessionId: "sub-t1", commandId: "m-orig" },
      "session/root:out:7.0",
    );
    expect(sessionStep(child, approve).actions).toEqual([
      emitEvent("message.accepted", {
        messageId: "session/root:out:7.0",
        type: "tool.approve",
        runId: "r1",
      }),
      sendMessage({
        to: `tool/${toolActorId("sub-t1", "r1", "c1")}`,
        type: "tool.approve",
        payload: { toolCallId: "c1", commandId: "m-orig" },
      }),
    ]);
  });

  it("a sessionId equal to the session's own behaves as without one", () => {
    const approve = inboxEvent("tool.approve", { toolCallId: "c1", sessionId: "s1" }, "m-a");
    expect(sessionStep(parentRunning(), approve).actions).toContainEqual(
      sendMessage({
        to: `tool/${toolActorId("s1", "r1", "c1")}`,
        type: "tool.approve",
        payload: { toolCallId: "c1", commandId: "m-a" },
      }),
    );
  });

  it("refuses another session that is not a subagent's, and sub- ids from a subagent's session", () => {
    const other = inboxEvent("tool.approve", { toolCallId: "c1", sessionId: "s2" }, "m-a");
    const rejected = sessionStep(parentRunning(), other).actions;
    expect(rejected).toHaveLength(1);
    expect(JSON.stringify(rejected)).toContain("unknown_session");
    const child = sessionStep(
      newSession("sub-t1"),
      userMessage("m1", { text: "task", metadata }),
    ).snapshot;
    const nested = inboxEvent("tool.deny", { toolCallId: "c1", sessionId: "sub-t2" }, "m-d");
    expect(JSON.stringify(sessionStep(child, nested).actions)).toContain("unknown_session");
  });
});
