import {
  appendEntry,
  emitEvent,
  requestEffect,
  sendMessage,
  type ForkResolveOutput,
  type SessionSettings,
} from "@troupe/protocol";
import { describe, expect, it } from "vitest";
import { commandSettled } from "../host-actions/command-verdict.js";
import { inboxEvent } from "../testing/inbox.js";
import {
  newSession,
  runFinished,
  sessionStep,
  sessionSteps,
  sessionTransition,
  userMessage,
} from "../testing/session-kit.js";
import type { SessionEvent } from "./session-events.js";

const fork = (
  messageId: string,
  payload: { from: string; atSequence?: number; atRunId?: string },
) => inboxEvent("session.fork", payload, messageId);
const point: ForkResolveOutput = {
  transcriptLength: 4,
  transcriptBase: [{ sessionId: "a", length: 4 }],
  runId: "r2",
  agent: "assistant",
  policy: "reject",
  maxModelCalls: 7,
};
const resolved = (output: ForkResolveOutput = point): SessionEvent => ({
  type: "effect.completed",
  effectId: "fork.1",
  effect: "fork.resolve",
  output,
});
const refused = (code: string, message: string): SessionEvent => ({
  type: "effect.failed",
  effectId: "fork.1",
  effect: "fork.resolve",
  error: { code, message, retryable: false },
});

describe("session: fork (issue #19)", () => {
  it("session.fork asks for the fork point and holds later messages until it is known", () => {
    const asked = sessionTransition(newSession("f1"), fork("k1", { from: "a", atRunId: "r2" }));
    expect(asked.snapshot.value).toBe("forking");
    expect(asked.actions).toEqual([
      requestEffect({
        effect: "fork.resolve",
        effectId: "fork.1",
        input: { from: "a", atRunId: "r2" },
      }),
    ]);
    const held = sessionTransition(asked.snapshot, userMessage("m1", { text: "next?" }));
    expect(held.actions).toEqual([]);
    expect(held.snapshot.context.pendingFork?.waiting).toHaveLength(1);
  });

  it("the journaled fork point creates the fork; its first run continues the shared transcript", () => {
    const asked = sessionTransition(newSession("f1"), fork("k1", { from: "a", atRunId: "r2" }));
    const waited = sessionTransition(asked.snapshot, userMessage("m1", { text: "next?" }));
    const forked = sessionTransition(waited.snapshot, resolved());
    expect(forked.snapshot.value).toBe("running");
    expect(forked.snapshot.context).toMatchObject({
      created: true,
      agent: "assistant",
      policy: "reject",
      maxModelCalls: 7,
      transcriptLength: 5,
      transcriptBase: [{ sessionId: "a", length: 4 }],
      fork: { from: "a", atRunId: "r2" },
    });
    expect(forked.snapshot.context.pendingFork).toBeUndefined();
    expect(forked.actions.slice(0, 3)).toEqual([
      emitEvent("session.created", {
        sessionId: "f1",
        agent: "assistant",
        forkedFrom: { sessionId: "a" },
      }),
      emitEvent("session.forked", {
        sessionId: "f1",
        from: "a",
        transcriptLength: 4,
        transcriptBase: [{ sessionId: "a", length: 4 }],
        runId: "r2",
        atRunId: "r2",
        agent: "assistant",
      }),
      commandSettled(fork("k1", { from: "a" }), "applied"),
    ]);
    // The held message runs with the source's agent, written at index 4 of the fork's own log.
    expect(forked.actions).toContainEqual(
      appendEntry({
        log: "transcript",
        key: "f1",
        index: 4,
        entry: { role: "user", text: "next?", messageId: "m1" },
      }),
    );
    expect(forked.actions).toContainEqual(
      sendMessage({
        to: "run/f1",
        type: "run.start",
        priority: "default",
        payload: {
          runId: "r1",
          sessionId: "f1",
          agent: "assistant",
          maxModelCalls: 7,
          transcriptLength: 5,
          transcriptBase: [{ sessionId: "a", length: 4 }],
        },
      }),
    );
  });

  it("a failed fork point refuses the command with its code and leaves the session new", () => {
    const asked = sessionTransition(newSession("f1"), fork("k1", { from: "nope" }));
    const failed = sessionTransition(
      asked.snapshot,
      refused("unknown_session", "session nope has no history"),
    );
    expect(failed.snapshot.value).toBe("idle");
    expect(failed.actions).toEqual([
      emitEvent("message.rejected", {
        reason: "session nope has no history",
        code: "unknown_session",
        messageId: "k1",
        type: "session.fork",
      }),
    ]);
    expect(failed.snapshot.context).toMatchObject({ created: false, transcriptLength: 0 });
    expect(failed.snapshot.context.fork).toBeUndefined();
  });

  it("a session with a history refuses to become a fork (session_exists)", () => {
    const used = sessionSteps(
      newSession("f1"),
      userMessage("m1", { text: "hi" }),
      runFinished({ runId: "r1", outcome: "completed", transcriptLength: 2, steersApplied: 0 }),
    );
    const refusedFork = sessionStep(used.snapshot, fork("k1", { from: "a" }));
    expect(refusedFork.actions).toEqual([
      emitEvent("message.rejected", {
        reason: "session f1 already exists; fork into a new session id",
        code: "session_exists",
        messageId: "k1",
        type: "session.fork",
      }),
    ]);
    expect(refusedFork.snapshot.context.transcriptLength).toBe(2);
  });

  it("the same fork again is applied again and changes nothing; another point is refused", () => {
    const asked = sessionTransition(newSession("f1"), fork("k1", { from: "a", atRunId: "r2" }));
    const forked = sessionTransition(asked.snapshot, resolved());
    const again = sessionTransition(forked.snapshot, fork("k2", { from: "a", atRunId: "r2" }));
    expect(again.actions).toEqual([
      commandSettled(fork("k2", { from: "a", atRunId: "r2" }), "applied"),
    ]);
    expect(again.snapshot.context).toEqual(forked.snapshot.context);
    const other = sessionTransition(forked.snapshot, fork("k3", { from: "a", atRunId: "r1" }));
    expect(other.actions[0]).toMatchObject({
      params: { type: "message.rejected", payload: { code: "session_exists" } },
    });
  });

  it("a session cannot be forked into itself", () => {
    const step = sessionTransition(newSession("f1"), fork("k1", { from: "f1" }));
    expect(step.snapshot.value).toBe("idle");
    expect(step.actions[0]).toMatchObject({
      params: { type: "message.rejected", payload: { code: "invalid_fork" } },
    });
  });

  it("settings session.configure set before the fork win over the source agent's defaults", () => {
    const configured = sessionStep(
      newSession("f1"),
      inboxEvent("session.configure", { maxModelCalls: 2 }, "c1"),
    );
    const asked = sessionTransition(configured.snapshot, fork("k1", { from: "a" }));
    const forked = sessionTransition(asked.snapshot, resolved());
    expect(forked.snapshot.context).toMatchObject({ maxModelCalls: 2, policy: "reject" });
  });

  it("takes on the source's configured settings at the fork point, under its own; tool policies unite", () => {
    const configured = sessionStep(
      newSession("f1"),
      inboxEvent("session.configure", { maxModelCalls: 2, toolPolicy: { ask: ["lookup"] } }, "c1"),
    );
    const asked = sessionTransition(configured.snapshot, fork("k1", { from: "a" }));
    const forked = sessionTransition(
      asked.snapshot,
      resolved({
        ...point,
        settings: {
          policy: "steer",
          model: "openai:gpt-4o-mini",
          maxModelCalls: 9,
          toolPolicy: { deny: ["charge*"] },
        },
      }),
    );
    expect(forked.snapshot.context).toMatchObject({
      policy: "steer",
      model: "openai:gpt-4o-mini",
      maxModelCalls: 2,
      toolPolicy: { ask: ["lookup"], deny: ["charge*"] },
      configured: ["maxModelCalls", "policy"],
    });
    const settings: SessionSettings = {
      policy: "steer",
      model: "openai:gpt-4o-mini",
      maxModelCalls: 2,
      toolPolicy: { ask: ["lookup"], deny: ["charge*"] },
    };
    expect(forked.actions).toContainEqual(
      emitEvent("session.forked", {
        sessionId: "f1",
        from: "a",
        transcriptLength: 4,
        transcriptBase: [{ sessionId: "a", length: 4 }],
        runId: "r2",
        agent: "assistant",
        settings,
      }),
    );
    // The fork's first run gets the inherited deny pattern and model.
    const started = sessionStep(forked.snapshot, userMessage("m1", { text: "go" }));
    expect(started.actions).toContainEqual(
      sendMessage({
        to: "run/f1",
        type: "run.start",
        priority: "default",
        payload: expect.objectContaining({
          model: "openai:gpt-4o-mini",
          maxModelCalls: 2,
          toolPolicy: { ask: ["lookup"], deny: ["charge*"] },
        }) as never,
      }),
    );
    // A later configure reports everything the fork now runs with.
    const reconfigured = sessionStep(
      started.snapshot,
      inboxEvent("session.configure", { toolPolicy: { deny: ["wipe"] } }, "c2"),
    );
    expect(reconfigured.actions).toContainEqual(
      commandSettled({ type: "session.configure", messageId: "c2" }, "applied", {
        runId: "r1",
        settings: { ...settings, toolPolicy: { ask: ["lookup"], deny: ["charge*", "wipe"] } },
      }),
    );
  });
});
