import { toolActorId, emitEvent, sendMessage } from "@troupe/protocol";
import { describe, expect, it } from "vitest";
import { commandSettled } from "../host-actions/command-verdict.js";
import { inboxEvent } from "../testing/inbox.js";
import {
  newSession,
  runFinished,
  sessionStep,
  sessionSteps,
  userMessage,
} from "../testing/session-kit.js";

const running = () => sessionStep(newSession(), userMessage("m1", { text: "hi" })).snapshot;
const idleAfterRun = () =>
  sessionStep(
    running(),
    runFinished({ runId: "r1", outcome: "completed", transcriptLength: 2, steersApplied: 0 }),
  ).snapshot;
const toolAddress = (toolCallId: string, runId = "r1") =>
  `tool/${toolActorId("s1", runId, toolCallId)}`;
const approve = inboxEvent("tool.approve", { toolCallId: "call_1", note: "ok" }, "m-a");
const deny = inboxEvent("tool.deny", { toolCallId: "call_1", reason: "no" }, "m-d");
const answer = inboxEvent("question.answer", { questionId: "call_2", text: "Lisbon" }, "m-q");
const configure = (toolPolicy: Record<string, string[]>, id = "m-c") =>
  inboxEvent("session.configure", { toolPolicy }, id);

describe("session: tool.approve, tool.deny and question.answer", () => {
  it("are accepted and forwarded, payload unchanged, to the tool call actor of the active run", () => {
    const session = running();
    expect(sessionStep(session, approve).actions).toEqual([
      emitEvent("message.accepted", { messageId: "m-a", type: "tool.approve", runId: "r1" }),
      sendMessage({
        to: toolAddress("call_1"),
        type: "tool.approve",
        payload: { toolCallId: "call_1", note: "ok", commandId: "m-a" },
      }),
    ]);
    expect(sessionStep(session, deny).actions).toEqual([
      emitEvent("message.accepted", { messageId: "m-d", type: "tool.deny", runId: "r1" }),
      sendMessage({
        to: toolAddress("call_1"),
        type: "tool.deny",
        payload: { toolCallId: "call_1", reason: "no", commandId: "m-d" },
      }),
    ]);
    const answered = sessionStep(session, answer);
    expect(answered.snapshot.value).toBe("running");
    expect(answered.actions).toEqual([
      emitEvent("message.accepted", { messageId: "m-q", type: "question.answer", runId: "r1" }),
      sendMessage({
        to: toolAddress("call_2"),
        type: "question.answer",
        payload: { questionId: "call_2", text: "Lisbon", commandId: "m-q" },
      }),
    ]);
  });

  it("when idle, go to the last run (a late settlement is told it was already settled)", () => {
    const { snapshot, actions } = sessionStep(idleAfterRun(), approve);
    expect(snapshot.value).toBe("idle");
    expect(actions).toEqual([
      emitEvent("message.accepted", { messageId: "m-a", type: "tool.approve", runId: "r1" }),
      sendMessage({
        to: toolAddress("call_1"),
        type: "tool.approve",
        payload: { toolCallId: "call_1", note: "ok", commandId: "m-a" },
      }),
    ]);
  });

  it("before any run: rejected with no_run", () => {
    const { actions } = sessionStep(newSession(), deny);
    expect(actions).toEqual([
      emitEvent("message.rejected", {
        reason: "session s1 has no run with tool calls yet",
        code: "no_run",
        messageId: "m-d",
        type: "tool.deny",
      }),
    ]);
  });

  it("closing or closed: rejected with session_closed", () => {
    const closing = sessionStep(running(), inboxEvent("session.close", {}, "m-x")).snapshot;
    const closed = sessionStep(newSession(), inboxEvent("session.close", {}, "m-x")).snapshot;
    for (const session of [closing, closed]) {
      const { actions } = sessionStep(session, approve);
      expect(actions).toHaveLength(1);
      expect(actions[0]).toMatchObject({
        params: { type: "message.rejected", payload: { code: "session_closed" } },
      });
    }
  });
});

describe("session: toolPolicy overrides", () => {
  it("ask and deny patterns accumulate and go to each later run in run.start", () => {
    const { snapshot, actions } = sessionSteps(
      newSession(),
      configure({ ask: ["lookup"], deny: ["charge*"] }),
      configure({ deny: ["charge*", "wipe"] }, "m-c2"),
    );
    expect(actions).toEqual([
      emitEvent("message.accepted", { messageId: "m-c2", type: "session.configure" }),
      commandSettled({ type: "session.configure", messageId: "m-c2" }, "applied", {
        settings: { toolPolicy: { ask: ["lookup"], deny: ["charge*", "wipe"] } },
      }),
    ]);
    expect(snapshot.context.toolPolicy).toEqual({ ask: ["lookup"], deny: ["charge*", "wipe"] });
    const started = sessionStep(snapshot, userMessage("m1", { text: "hi" }));
    expect(started.actions.find((action) => action.type === "troupe.send")).toEqual(
      sendMessage({
        to: "run/s1",
        type: "run.start",
        priority: "default",
        payload: {
          runId: "r1",
          sessionId: "s1",
          maxModelCalls: 50,
          transcriptLength: 1,
          toolPolicy: { ask: ["lookup"], deny: ["charge*", "wipe"] },
        },
      }),
    );
  });

  it("an attempt to loosen (toolPolicy.allow) rejects the whole message; nothing changes", () => {
    for (const session of [newSession(), running()]) {
      const { snapshot, actions } = sessionStep(
        session,
        inboxEvent(
          "session.configure",
          { maxModelCalls: 3, toolPolicy: { allow: ["*"], deny: ["x"] } },
          "m-l",
        ),
      );
      expect(actions).toEqual([
        emitEvent("message.rejected", {
          reason:
            "session.configure may only make the tool policy safer (ask, deny); toolPolicy.allow is refused",
          code: "tool_policy_loosening",
          messageId: "m-l",
          type: "session.configure",
        }),
      ]);
      expect(snapshot.context.toolPolicy).toBeUndefined();
      expect(snapshot.context.maxModelCalls).toBe(50);
    }
  });

  it("an empty allow list is no loosening", () => {
    const { snapshot, actions } = sessionStep(newSession(), configure({ allow: [], ask: ["a"] }));
    expect(actions).toEqual([
      emitEvent("message.accepted", { messageId: "m-c", type: "session.configure" }),
      commandSettled({ type: "session.configure", messageId: "m-c" }, "applied", {
        settings: { toolPolicy: { ask: ["a"] } },
      }),
    ]);
    expect(snapshot.context.toolPolicy).toEqual({ ask: ["a"] });
  });
});
