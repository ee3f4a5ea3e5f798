import { commandSettled } from "../host-actions/command-verdict.js";
import {
  agentResolveInputSchema,
  appendEntry,
  emitEvent,
  requestEffect,
  sendMessage,
} from "@troupe/protocol";
import { describe, expect, it } from "vitest";
import { inboxEvent } from "../testing/inbox.js";
import { emittedTypes } from "../testing/pure-driver.js";
import {
  agentResolved,
  agentUnknown,
  newSession,
  sessionStep,
  sessionTransition,
  userMessage,
  type SessionSnapshot,
} from "../testing/session-kit.js";

const resolveRequest = (effectId: string, agent?: string) =>
  requestEffect({
    effect: "agent.resolve",
    effectId,
    input: agent === undefined ? {} : { agent },
  });

/** Feeds events with no stand-in host: `agent.resolve` results come only when a test sends them. */
function transitions(
  snapshot: SessionSnapshot,
  ...events: Parameters<typeof sessionTransition>[1][]
) {
  let step = { snapshot, actions: [] as ReturnType<typeof sessionTransition>["actions"] };
  const actions: typeof step.actions = [];
  for (const event of events) {
    step = sessionTransition(step.snapshot, event);
    actions.push(...step.actions);
  }
  return { snapshot: step.snapshot, actions, last: step.actions };
}

describe("session: agent settings come from the journal (agent.resolve)", () => {
  it("the first message waits for its agent's settings; the journaled result admits it with them", () => {
    const waiting = sessionTransition(
      newSession(),
      userMessage("m1", { text: "Hello", agent: "strict", clientMessageId: "c1" }),
    );
    expect(waiting.snapshot.value).toBe("resolving");
    expect(waiting.actions).toEqual([resolveRequest("agent.1", "strict")]);
    expect(waiting.snapshot.context.created).toBe(false);
    expect(
      agentResolveInputSchema.parse((waiting.actions[0]?.params as { input: unknown }).input),
    ).toEqual({ agent: "strict" });

    const admitted = sessionTransition(
      waiting.snapshot,
      agentResolved("agent.1", { policy: "reject", maxModelCalls: 3 }),
    );
    expect(admitted.snapshot.value).toBe("running");
    expect(admitted.actions).toEqual([
      emitEvent("session.created", { sessionId: "s1", agent: "strict" }),
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
          agent: "strict",
          maxModelCalls: 3,
          transcriptLength: 1,
        },
      }),
      emitEvent("run.started", { runId: "r1", messageId: "m1", agent: "strict" }),
    ]);
    expect(admitted.snapshot.context).toMatchObject({
      policy: "reject",
      maxModelCalls: 3,
      resolvedAgents: [{ agent: "strict", policy: "reject", maxModelCalls: 3 }],
      agentResolutions: 1,
      pendingAgent: undefined,
    });
  });

  it("a first message without an agent resolves the host's default agent (input {})", () => {
    const { snapshot, actions, last } = transitions(
      newSession(),
      userMessage("m1", { text: "Hi" }),
      agentResolved("agent.1", { policy: "steer", maxModelCalls: 9 }),
    );
    expect(actions[0]).toEqual(resolveRequest("agent.1"));
    expect(last[0]).toEqual(emitEvent("session.created", { sessionId: "s1" }));
    expect(snapshot.context).toMatchObject({
      agent: undefined,
      policy: "steer",
      maxModelCalls: 9,
      resolvedAgents: [{ policy: "steer", maxModelCalls: 9 }],
    });
  });

  it("an unknown agent rejects the message (unknown_agent, the host's text, its envelope id and type); the next message starts afresh", () => {
    const rejected = transitions(
      newSession(),
      userMessage("m1", { text: "hi", agent: "nope" }),
      agentUnknown("agent.1", "nope", ["demo"]),
    );
    expect(rejected.snapshot.value).toBe("idle");
    expect(rejected.last).toEqual([
      emitEvent("message.rejected", {
        reason: 'Unknown agent "nope". This host serves: demo.',
        code: "unknown_agent",
        messageId: "m1",
        type: "user.message",
      }),
    ]);
    expect(rejected.snapshot.context).toMatchObject({
      created: false,
      resolvedAgents: [],
      admittedCount: 0,
      pendingAgent: undefined,
    });

    const next = transitions(
      rejected.snapshot,
      userMessage("m2", { text: "hi", agent: "demo" }),
      agentResolved("agent.2"),
    );
    expect(next.actions[0]).toEqual(resolveRequest("agent.2", "demo"));
    expect(emittedTypes(next.last)).toEqual(["session.created", "message.accepted", "run.started"]);
  });

  it("messages that arrive while the session waits are held, then taken in arrival order", () => {
    const held = transitions(
      newSession(),
      userMessage("m1", { text: "first", agent: "assistant" }),
      userMessage("m2", { text: "second" }),
      inboxEvent("session.configure", { policy: "steer" as const }, "m3"),
      userMessage("m4", { text: "third" }),
      inboxEvent("session.close", {}, "m5"),
    );
    expect(held.snapshot.value).toBe("resolving");
    expect(held.actions).toEqual([resolveRequest("agent.1", "assistant")]);
    expect(held.snapshot.context.pendingAgent?.waiting.map((event) => event.type)).toEqual([
      "user.message",
      "session.configure",
      "user.message",
      "session.close",
    ]);

    const released = sessionTransition(held.snapshot, agentResolved("agent.1"));
    // m1 starts r1, m2 queues (enqueue), the configure switches to steer, m4
    // steers r1, and the close cancels the run.
    expect(released.snapshot.value).toBe("closing");
    expect(emittedTypes(released.actions)).toEqual([
      "session.created",
      "message.accepted",
      "run.started",
      "message.accepted",
      "message.accepted",
      "command.settled",
      "message.accepted",
      "command.settled",
    ]);
    expect(released.actions.filter((action) => action.type === "troupe.send")).toEqual([
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
      sendMessage({ to: "run/s1", type: "run.steer", payload: { runId: "r1", text: "third" } }),
      sendMessage({
        to: "run/s1",
        type: "run.cancel",
        payload: { runId: "r1", reason: "the session is closing" },
      }),
    ]);
    expect(released.snapshot.context.queue.map((entry) => entry.messageId)).toEqual(["m2"]);
  });

  it("a held message naming another unresolved agent waits again, and those behind it too", () => {
    const first = transitions(
      newSession(),
      userMessage("m1", { text: "one", agent: "assistant" }),
      userMessage("m2", { text: "two", agent: "nope" }),
      userMessage("m3", { text: "three" }),
      agentResolved("agent.1"),
    );
    expect(first.snapshot.value).toBe("resolving");
    expect(first.last).toContainEqual(resolveRequest("agent.2", "nope"));
    expect(first.snapshot.context.pendingAgent).toMatchObject({
      effectId: "agent.2",
      message: { messageId: "m2" },
      waiting: [{ messageId: "m3" }],
    });
    const second = sessionTransition(first.snapshot, agentUnknown("agent.2", "nope"));
    expect(second.snapshot.value).toBe("running");
    expect(second.actions).toEqual([
      emitEvent("message.rejected", {
        reason: 'Unknown agent "nope". This host serves: assistant.',
        code: "unknown_agent",
        messageId: "m2",
        type: "user.message",
      }),
      emitEvent("message.accepted", { messageId: "m3", type: "user.message", queued: true }),
    ]);
  });

  it("during a run, a message naming a known agent is resolved once and then handled by the policy", () => {
    const running = sessionStep(newSession(), userMessage("m1", { text: "one", agent: "a" }));
    const waiting = sessionTransition(
      running.snapshot,
      userMessage("m2", { text: "two", agent: "b" }),
    );
    expect(waiting.snapshot.value).toBe("resolving");
    expect(waiting.actions).toEqual([resolveRequest("agent.2", "b")]);
    const queued = sessionTransition(waiting.snapshot, agentResolved("agent.2"));
    expect(queued.snapshot.value).toBe("running");
    expect(queued.actions).toEqual([
      emitEvent("message.accepted", { messageId: "m2", type: "user.message", queued: true }),
    ]);
    expect(queued.snapshot.context.agent).toBe("a");
    // Known now: the next message naming it is taken at once, and so is one without a name.
    const again = sessionTransition(queued.snapshot, userMessage("m3", { text: "3", agent: "b" }));
    const plain = sessionTransition(again.snapshot, userMessage("m4", { text: "4" }));
    expect(emittedTypes([...again.actions, ...plain.actions])).toEqual([
      "message.accepted",
      "message.accepted",
    ]);
  });

  it("while an agent resolves, the active run can still be cancelled and its tool calls approved", () => {
    const running = sessionStep(newSession(), userMessage("m1", { text: "one", agent: "a" }));
    const waiting = sessionTransition(
      running.snapshot,
      userMessage("m2", { text: "two", agent: "b" }),
    );
    expect(waiting.snapshot.value).toBe("resolving");
    const cancelled = sessionTransition(
      waiting.snapshot,
      inboxEvent("run.cancel", { runId: "r1" }, "m-c"),
    );
    expect(cancelled.snapshot.value).toBe("resolving");
    expect(cancelled.actions).toEqual([
      commandSettled({ type: "run.cancel", messageId: "m-c" }, "applied", { runId: "r1" }),
      sendMessage({ to: "run/s1", type: "run.cancel", payload: { runId: "r1" } }),
    ]);
    const approved = sessionTransition(
      cancelled.snapshot,
      inboxEvent("tool.approve", { toolCallId: "call_1" }, "m-a"),
    );
    expect(approved.snapshot.value).toBe("resolving");
    expect(emittedTypes(approved.actions)).toEqual(["message.accepted"]);
    // Only the user message waits for the agent.
    expect(approved.snapshot.context.pendingAgent?.waiting ?? []).toEqual([]);
  });

  it("a held repeat of a client message id is a duplicate once the original is admitted", () => {
    const { last, snapshot } = transitions(
      newSession(),
      userMessage("m1", { text: "hi", clientMessageId: "c1" }),
      userMessage("m2", { text: "hi", clientMessageId: "c1" }),
      agentResolved("agent.1"),
    );
    expect(emittedTypes(last)).toEqual([
      "session.created",
      "message.accepted",
      "run.started",
      "message.duplicate",
    ]);
    expect(snapshot.context.admittedClientMessageIds).toEqual(["c1"]);
  });

  it("a subagent's first message resolves <parent>--<sub> and keeps its parent from the metadata", () => {
    const metadata = { parentSessionId: "p1", parentToolActor: "tool/t1" };
    const { snapshot, actions } = transitions(
      newSession("sub-t1"),
      userMessage("m1", { text: "task", agent: "boss--helper", metadata }),
      agentResolved("agent.1", { policy: "enqueue", maxModelCalls: 4 }),
    );
    expect(actions[0]).toEqual(resolveRequest("agent.1", "boss--helper"));
    expect(snapshot.context.parent).toEqual({ sessionId: "p1", toolActor: "tool/t1" });
    expect(actions).toContainEqual(
      sendMessage({
        to: "run/sub-t1",
        type: "run.start",
        priority: "default",
        payload: {
          runId: "r1",
          sessionId: "sub-t1",
          agent: "boss--helper",
          maxModelCalls: 4,
          transcriptLength: 1,
          parentSessionId: "p1",
        },
      }),
    );
  });

  it("ignores the results of other effects and refuses a malformed result with code internal", () => {
    const waiting = sessionTransition(newSession(), userMessage("m1", { text: "hi" }));
    const stray = sessionTransition(waiting.snapshot, agentResolved("agent.9"));
    expect(stray.actions).toEqual([]);
    expect(stray.snapshot.context).toEqual(waiting.snapshot.context);
    const malformed = sessionTransition(waiting.snapshot, {
      type: "effect.completed",
      effectId: "agent.1",
      effect: "agent.resolve",
      output: { policy: "sometimes" },
    });
    expect(malformed.snapshot.value).toBe("idle");
    expect(malformed.actions).toEqual([
      emitEvent("message.rejected", {
        reason: "agent.resolve returned no agent settings ({ policy, maxModelCalls })",
        code: "internal",
        messageId: "m1",
        type: "user.message",
      }),
    ]);
  });

  it("a closed session refuses a message without resolving its agent", () => {
    const closed = sessionStep(newSession(), inboxEvent("session.close", {}, "m0")).snapshot;
    const refused = sessionTransition(closed, userMessage("m1", { text: "hi", agent: "x" }));
    expect(refused.actions).toEqual([
      emitEvent("message.rejected", {
        reason: "session s1 is closed",
        code: "session_closed",
        messageId: "m1",
        type: "user.message",
      }),
    ]);
    expect(refused.snapshot.context.agentResolutions).toBe(0);
  });
});
