import { commandSettled } from "../host-actions/command-verdict.js";
import { describe, expect, it } from "vitest";
import { appendEntry, emitEvent, sendMessage } from "@troupe/protocol";
import { inboxEvent } from "../testing/inbox.js";
import { emittedTypes } from "../testing/pure-driver.js";
import {
  agentResolved,
  newSession,
  runFinished,
  sessionStep,
  sessionSteps,
  sessionTransition,
  userMessage,
} from "../testing/session-kit.js";
import { admit } from "./session-admission-steps.js";
import {
  ADMITTED_CLIENT_MESSAGE_IDS_LIMIT,
  initialSessionContext,
  type SessionContext,
} from "./session-context.js";

describe("session: admitting user messages", () => {
  it("the first message creates the session, is accepted and starts run r1", () => {
    const { snapshot, actions } = sessionStep(
      newSession(),
      userMessage("m1", { text: "Hello", clientMessageId: "c1", agent: "assistant" }),
    );
    expect(snapshot.value).toBe("running");
    expect(actions).toEqual([
      emitEvent("session.created", { sessionId: "s1", agent: "assistant" }),
      emitEvent("message.accepted", {
        messageId: "m1",
        type: "user.message",
        clientMessageId: "c1",
        runId: "r1",
      }),
      appendEntry({
        log: "transcript",
        key: "s1",
        index: 0,
        entry: { role: "user", text: "Hello", messageId: "m1" },
      }),
      sendMessage({
        to: "run/s1",
        type: "run.start",
        priority: "default",
        payload: {
          runId: "r1",
          sessionId: "s1",
          agent: "assistant",
          maxModelCalls: 50,
          transcriptLength: 1,
        },
      }),
      emitEvent("run.started", { runId: "r1", messageId: "m1", agent: "assistant" }),
    ]);
    expect(snapshot.context).toMatchObject({
      created: true,
      agent: "assistant",
      activeRunId: "r1",
      runCount: 1,
      transcriptLength: 1,
      queue: [],
      admittedClientMessageIds: ["c1"],
    });
  });

  it("without an agent, the session uses the host's default agent (no agent field anywhere)", () => {
    const { actions } = sessionStep(newSession(), userMessage("m1", { text: "Hi" }));
    expect(actions[0]).toEqual(emitEvent("session.created", { sessionId: "s1" }));
    expect(actions[3]).toEqual(
      sendMessage({
        to: "run/s1",
        type: "run.start",
        priority: "default",
        payload: { runId: "r1", sessionId: "s1", maxModelCalls: 50, transcriptLength: 1 },
      }),
    );
  });

  it("the agent is fixed by the first message; later messages do not change it", () => {
    const { snapshot, actions } = sessionSteps(
      newSession(),
      userMessage("m1", { text: "one", agent: "assistant" }),
      runFinished({ runId: "r1", outcome: "completed", transcriptLength: 2, steersApplied: 0 }),
      userMessage("m2", { text: "two", agent: "other" }),
    );
    expect(snapshot.context.agent).toBe("assistant");
    expect(emittedTypes(actions)).toEqual(["message.accepted", "run.started"]);
    expect(actions).toContainEqual(
      emitEvent("run.started", { runId: "r2", messageId: "m2", agent: "assistant" }),
    );
  });

  it("a repeated client message id yields message.duplicate and nothing else, idle or running", () => {
    const running = sessionStep(
      newSession(),
      userMessage("m1", { text: "a", clientMessageId: "c1" }),
    );
    const duringRun = sessionStep(
      running.snapshot,
      userMessage("m2", { text: "a", clientMessageId: "c1" }),
    );
    const duplicate = emitEvent("message.duplicate", {
      messageId: "m2",
      type: "user.message",
      clientMessageId: "c1",
    });
    expect(duringRun.actions).toEqual([duplicate]);
    expect(duringRun.snapshot.context).toEqual(running.snapshot.context);

    const idle = sessionStep(
      running.snapshot,
      runFinished({ runId: "r1", outcome: "completed", transcriptLength: 2, steersApplied: 0 }),
    );
    expect(idle.snapshot.value).toBe("idle");
    const afterRun = sessionStep(
      idle.snapshot,
      userMessage("m2", { text: "a", clientMessageId: "c1" }),
    );
    expect(afterRun.actions).toEqual([duplicate]);
    expect(afterRun.snapshot.value).toBe("idle");
    expect(afterRun.snapshot.context).toEqual(idle.snapshot.context);
  });

  it("messages without a client message id are never duplicates", () => {
    const { snapshot } = sessionSteps(
      newSession(),
      userMessage("m1", { text: "same" }),
      userMessage("m2", { text: "same" }),
    );
    expect(snapshot.context.queue.map((entry) => entry.messageId)).toEqual(["m2"]);
  });

  it(`remembers only the last ${ADMITTED_CLIENT_MESSAGE_IDS_LIMIT} client message ids`, () => {
    const full: SessionContext = {
      ...initialSessionContext({ address: { kind: "session", id: "s1" } }),
      created: true,
      admittedClientMessageIds: Array.from(
        { length: ADMITTED_CLIENT_MESSAGE_IDS_LIMIT },
        (_, index) => `c${index}`,
      ),
    };
    const { context } = admit(full, userMessage("m1", { text: "x", clientMessageId: "new" }));
    expect(context?.admittedClientMessageIds).toHaveLength(ADMITTED_CLIENT_MESSAGE_IDS_LIMIT);
    expect(context?.admittedClientMessageIds?.[0]).toBe("c1");
    expect(context?.admittedClientMessageIds?.at(-1)).toBe("new");
  });

  it("session.configure changes the settings of later runs and is acknowledged", () => {
    const configure = inboxEvent(
      "session.configure",
      { policy: "steer" as const, model: "openai:gpt-4o-mini", maxModelCalls: 5 },
      "m0",
    );
    const configured = sessionStep(newSession(), configure);
    expect(configured.actions).toEqual([
      emitEvent("message.accepted", { messageId: "m0", type: "session.configure" }),
      commandSettled({ type: "session.configure", messageId: "m0" }, "applied", {
        settings: { policy: "steer", model: "openai:gpt-4o-mini", maxModelCalls: 5 },
      }),
    ]);
    expect(configured.snapshot.context).toMatchObject({
      policy: "steer",
      model: "openai:gpt-4o-mini",
      maxModelCalls: 5,
    });
    const started = sessionStep(configured.snapshot, userMessage("m1", { text: "go" }));
    expect(started.actions).toContainEqual(
      sendMessage({
        to: "run/s1",
        type: "run.start",
        priority: "default",
        payload: {
          runId: "r1",
          sessionId: "s1",
          model: "openai:gpt-4o-mini",
          maxModelCalls: 5,
          transcriptLength: 1,
        },
      }),
    );
  });

  it("session.configure during a run leaves the active run alone and applies to the next", () => {
    const { snapshot, actions } = sessionSteps(
      newSession(),
      userMessage("m1", { text: "first" }),
      userMessage("m2", { text: "second" }),
      inboxEvent("session.configure", { model: "m-2", maxModelCalls: 2 }, "m3"),
    );
    expect(actions).toEqual([
      emitEvent("message.accepted", { messageId: "m3", type: "session.configure" }),
      commandSettled({ type: "session.configure", messageId: "m3" }, "applied", {
        runId: "r1",
        settings: { model: "m-2", maxModelCalls: 2 },
      }),
    ]);
    const next = sessionStep(
      snapshot,
      runFinished({ runId: "r1", outcome: "completed", transcriptLength: 2, steersApplied: 0 }),
    );
    expect(next.actions).toContainEqual(
      sendMessage({
        to: "run/s1",
        type: "run.start",
        priority: "default",
        payload: {
          runId: "r2",
          sessionId: "s1",
          model: "m-2",
          maxModelCalls: 2,
          transcriptLength: 3,
        },
      }),
    );
  });

  it("the first message's agent settings (its agent.resolve result) become the session's; a later message's agent changes nothing", () => {
    const waiting = sessionTransition(
      newSession(),
      userMessage("m1", { text: "Hello", agent: "strict" }),
    );
    const { snapshot } = sessionTransition(
      waiting.snapshot,
      agentResolved("agent.1", { policy: "reject", maxModelCalls: 7 }),
    );
    expect(snapshot.context.policy).toBe("reject");
    expect(snapshot.context.maxModelCalls).toBe(7);
    const later = sessionTransition(snapshot, userMessage("m2", { text: "Again", agent: "other" }));
    const next = sessionTransition(
      later.snapshot,
      agentResolved("agent.2", { policy: "steer", maxModelCalls: 3 }),
    );
    expect(next.snapshot.context.policy).toBe("reject");
    expect(next.snapshot.context.maxModelCalls).toBe(7);
    expect(emittedTypes(next.actions)).toEqual(["message.rejected"]);
  });

  it("settings configured before the first message win over the agent's settings", () => {
    const configured = sessionStep(
      newSession(),
      inboxEvent("session.configure", { policy: "interrupt" }, "m0"),
    ).snapshot;
    const waiting = sessionTransition(configured, userMessage("m1", { text: "Hello" }));
    const { snapshot } = sessionTransition(
      waiting.snapshot,
      agentResolved("agent.1", { policy: "reject", maxModelCalls: 7 }),
    );
    expect(snapshot.context.policy).toBe("interrupt");
    expect(snapshot.context.maxModelCalls).toBe(7);
  });
});
