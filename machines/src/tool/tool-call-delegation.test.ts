import { toolActorId, emitEvent, sendMessage } from "@troupe/protocol";
import { describe, expect, it } from "vitest";
import { inboxEvent } from "../testing/inbox.js";
import { newToolCallActor, toolStart, toolStep, toolSteps } from "../testing/tool-kit.js";
import {
  DELEGATION_DEPTH_CONTENT,
  INVALID_TASK_CONTENT,
  subagentSessionId,
} from "./tool-call-delegation.js";

const actorId = toolActorId("s1", "r1", "call_1");
const childId = `sub-${actorId}`;
const child = `session/${childId}`;
const about = { toolCallId: "call_1", runId: "r1", tool: "researcher" };
const delegation = (overrides: Parameters<typeof toolStart>[0] = {}) =>
  toolStart({
    toolName: "researcher",
    input: '{"task":"find the capital"}',
    subagent: "assistant--researcher",
    decision: "allow",
    ...overrides,
  });
const subagentFinished = (
  outcome: "completed" | "failed" | "cancelled",
  text: string,
  from = childId,
) =>
  inboxEvent(
    "subagent.finished",
    { sessionId: from, runId: "r1", outcome, text },
    `session/${from}:out:7.0`,
  );
const finished = (status: string, content: string) =>
  sendMessage({
    to: "run/s1",
    type: "tool.finished",
    payload: { runId: "r1", toolCallId: "call_1", status, content },
  });

describe("tool call: a subagent call", () => {
  it("the child session id is sub- + the tool actor id", () => {
    expect(subagentSessionId("s1", "r1", "call_1")).toBe(childId);
  });

  it("tool.start sends the task to the subagent's session and publishes subagent.started", () => {
    const { snapshot, actions } = toolStep(newToolCallActor(), delegation());
    expect(snapshot.value).toBe("delegating");
    expect(snapshot.context.childSessionId).toBe(childId);
    expect(actions).toEqual([
      emitEvent("tool.started", {
        ...about,
        effectClass: "read",
        arguments: { task: "find the capital" },
      }),
      emitEvent("subagent.started", {
        subagent: child,
        runId: "r1",
        task: "find the capital",
        agent: "assistant--researcher",
      }),
      sendMessage({
        to: child,
        type: "user.message",
        payload: {
          text: "find the capital",
          agent: "assistant--researcher",
          clientMessageId: actorId,
          metadata: {
            parentSessionId: "s1",
            parentRunId: "r1",
            parentToolActor: `tool/${actorId}`,
            depth: 1,
          },
        },
      }),
    ]);
  });

  it("subagent.finished completed: subagent.completed, tool.completed and tool.finished with the answer", () => {
    const { snapshot, actions } = toolSteps(
      newToolCallActor(),
      delegation(),
      subagentFinished("completed", "Lisbon"),
    );
    expect(snapshot.value).toBe("done");
    expect(snapshot.context.status).toBe("succeeded");
    expect(actions).toEqual([
      emitEvent("subagent.completed", { subagent: child, runId: "r1", text: "Lisbon" }),
      emitEvent("tool.completed", { ...about, content: "Lisbon" }),
      finished("succeeded", "Lisbon"),
    ]);
  });

  it("subagent.finished failed: the call fails with the reason", () => {
    const { snapshot, actions } = toolSteps(
      newToolCallActor(),
      delegation(),
      subagentFinished("failed", "model refused"),
    );
    expect(snapshot.context.status).toBe("failed");
    const content = "The subagent failed: model refused";
    expect(actions).toEqual([
      emitEvent("tool.failed", {
        ...about,
        error: { code: "subagent_failed", message: content, retryable: false },
      }),
      finished("failed", content),
    ]);
  });

  it("a subagent.finished from another session is ignored", () => {
    const { snapshot, actions } = toolSteps(
      newToolCallActor(),
      delegation(),
      subagentFinished("completed", "x", "sub-other"),
    );
    expect(snapshot.value).toBe("delegating");
    expect(actions).toEqual([]);
  });

  it("tool.cancel sends run.cancel to the subagent's session; its end is published but not sent to the run", () => {
    const cancel = inboxEvent(
      "tool.cancel",
      { runId: "r1", toolCallId: "call_1" },
      "run/s1:out:9.0",
    );
    const cancelled = toolSteps(newToolCallActor(), delegation(), cancel);
    expect(cancelled.snapshot.value).toBe("delegating");
    expect(cancelled.actions).toEqual([
      sendMessage({
        to: child,
        type: "run.cancel",
        payload: { reason: "the delegating run was cancelled" },
      }),
    ]);
    const again = toolStep(cancelled.snapshot, cancel);
    expect(again.actions).toEqual([]);
    const { snapshot, actions } = toolStep(
      cancelled.snapshot,
      subagentFinished("cancelled", "partial"),
    );
    expect(snapshot.value).toBe("done");
    expect(actions).toEqual([
      emitEvent("tool.failed", {
        ...about,
        error: {
          code: "subagent_cancelled",
          message: "The subagent was cancelled: partial",
          retryable: false,
        },
      }),
    ]);
  });

  it("a subagent's own run may not delegate: a tool error, nothing sent", () => {
    const { snapshot, actions } = toolStep(
      newToolCallActor(),
      delegation({ parentSessionId: "root" }),
    );
    expect(snapshot.value).toBe("done");
    expect(actions).toEqual([
      emitEvent("tool.failed", {
        ...about,
        error: {
          code: "delegation_depth_exceeded",
          message: DELEGATION_DEPTH_CONTENT,
          retryable: false,
        },
      }),
      finished("failed", DELEGATION_DEPTH_CONTENT),
    ]);
  });

  it("a call without a task is invalid_arguments", () => {
    const { snapshot, actions } = toolStep(newToolCallActor(), delegation({ input: "{}" }));
    expect(snapshot.value).toBe("done");
    expect(actions).toEqual([
      emitEvent("tool.failed", {
        ...about,
        error: { code: "invalid_arguments", message: INVALID_TASK_CONTENT, retryable: false },
      }),
      finished("invalid_arguments", INVALID_TASK_CONTENT),
    ]);
  });

  it("decision deny: never delegates", () => {
    const { snapshot, actions } = toolStep(newToolCallActor(), delegation({ decision: "deny" }));
    expect(snapshot.value).toBe("done");
    expect(actions.some((action) => JSON.stringify(action).includes("user.message"))).toBe(false);
  });

  it("decision ask: an approval delegates", () => {
    const asked = toolStep(newToolCallActor(), delegation({ decision: "ask" }));
    expect(asked.snapshot.value).toBe("awaitingApproval");
    const { snapshot, actions } = toolStep(
      asked.snapshot,
      inboxEvent("tool.approve", { toolCallId: "call_1" }, "session/s1:out:3.0"),
    );
    expect(snapshot.value).toBe("delegating");
    expect(snapshot.context.approval).toBe("approved");
    expect(actions).toContainEqual(
      emitEvent("tool.approval_settled", { toolCallId: "call_1", decision: "approved" }),
    );
    expect(actions.at(-1)).toMatchObject({ params: { to: child, type: "user.message" } });
  });
});
