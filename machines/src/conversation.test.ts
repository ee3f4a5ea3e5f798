import { describe, expect, it } from "vitest";
import { inboxEvent } from "./testing/inbox.js";
import { modelOutput } from "./testing/run-kit.js";
import { userMessage } from "./testing/session-kit.js";
import { TwoActorHarness } from "./testing/two-actor-harness.js";

// Drives a whole conversation through both machines by hand: every message one
// machine sends is fed to the other, model calls are answered by the test.

describe("a conversation through the session and run machines", () => {
  it("answers, deduplicates, steers, interrupts and closes, with a gapless transcript", () => {
    const host = new TwoActorHarness();

    // 1. A first question is answered.
    host.toSession(userMessage("m1", { text: "What's the weather?", clientMessageId: "c1" }));
    expect(host.session.value).toBe("running");
    expect(host.run.value).toBe("calling");
    expect([...host.pendingEffects.keys()]).toEqual(["r1.m1.a1"]);
    host.completeEffect("r1.m1.a1", modelOutput("Sunny.", 20, 3));
    expect(host.session.value).toBe("idle");
    expect(host.run.value).toBe("idle");

    // 2. The same client message again changes nothing.
    host.toSession(userMessage("m1-retry", { text: "What's the weather?", clientMessageId: "c1" }));
    expect(host.pendingEffects.size).toBe(0);

    // 3. Steering: a message during the run reaches the model at the next safe point.
    host.toSession(inboxEvent("session.configure", { policy: "steer" as const }, "k1"));
    host.toSession(userMessage("m2", { text: "Plan a picnic" }));
    host.toSession(userMessage("m3", { text: "with vegan food" }));
    host.completeEffect("r2.m1.a1", modelOutput("Bring sandwiches.", 40, 4));
    expect(host.pendingEffects.get("r2.m2.a1")).toMatchObject({ transcriptLength: 5 });
    host.completeEffect("r2.m2.a1", modelOutput("Bring hummus wraps.", 50, 5));
    expect(host.session.value).toBe("idle");

    // 4. Interrupting: the active run is cancelled, keeps its partial answer, and
    //    the interrupting message runs next.
    host.toSession(inboxEvent("session.configure", { policy: "interrupt" as const }, "k2"));
    host.toSession(userMessage("m4", { text: "Tell a long story" }));
    host.toSession(userMessage("m5", { text: "Actually, stop" }));
    expect(host.run.value).toBe("cancelling");
    expect(host.cancelledEffects).toEqual(["r3.m1.a1"]);
    host.completeEffect(
      "r3.m1.a1",
      modelOutput("Once upon", 30, 2, { finishReason: "abort", cancelled: true }),
    );
    expect(host.run.value).toBe("calling");
    host.completeEffect("r4.m1.a1", modelOutput("OK.", 60, 1));
    expect(host.session.value).toBe("idle");

    // 5. Closing.
    host.toSession(inboxEvent("session.close", {}, "x1"));
    expect(host.session.value).toBe("closed");

    const steerMessageId = host.transcript[4]?.role === "user" ? host.transcript[4].messageId : "";
    expect(host.transcript).toEqual([
      { role: "user", text: "What's the weather?", messageId: "m1" },
      { role: "assistant", text: "Sunny.", runId: "r1" },
      { role: "user", text: "Plan a picnic", messageId: "m2" },
      { role: "assistant", text: "Bring sandwiches.", runId: "r2" },
      { role: "user", text: "with vegan food", messageId: steerMessageId },
      { role: "assistant", text: "Bring hummus wraps.", runId: "r2" },
      { role: "user", text: "Tell a long story", messageId: "m4" },
      { role: "assistant", text: "Once upon", runId: "r3" },
      { role: "user", text: "Actually, stop", messageId: "m5" },
      { role: "assistant", text: "OK.", runId: "r4" },
    ]);
    expect(steerMessageId).toMatch(/^session\/s1:out:/);

    expect(host.eventTypes("session")).toEqual([
      "session.created",
      "message.accepted", // m1 → r1
      "run.started",
      "session.idle",
      "message.duplicate", // m1-retry
      "message.accepted", // k1
      "message.accepted", // m2 → r2
      "run.started",
      "message.accepted", // m3 steers r2
      "session.idle",
      "message.accepted", // k2
      "message.accepted", // m4 → r3
      "run.started",
      "message.accepted", // m5 queued, interrupts r3
      "run.started", // r4
      "session.idle",
      "session.closed",
    ]);
    expect(host.events.filter((event) => event.actor === "run")).toEqual([
      {
        actor: "run",
        type: "run.completed",
        payload: { runId: "r1", text: "Sunny.", usage: { inputTokens: 20, outputTokens: 3 } },
      },
      {
        actor: "run",
        type: "run.completed",
        payload: {
          runId: "r2",
          text: "Bring hummus wraps.",
          usage: { inputTokens: 90, outputTokens: 9 },
        },
      },
      {
        actor: "run",
        type: "run.cancelled",
        payload: {
          runId: "r3",
          partialText: "Once upon",
          usage: { inputTokens: 30, outputTokens: 2 },
          reason: "interrupted by a new message",
        },
      },
      {
        actor: "run",
        type: "run.completed",
        payload: { runId: "r4", text: "OK.", usage: { inputTokens: 60, outputTokens: 1 } },
      },
    ]);
    expect(host.session.context).toMatchObject({ runCount: 4, transcriptLength: 10, queue: [] });
    expect(host.run.context).toEqual({ sessionId: "s1", lastRunId: "r4" });
  });

  it("a steer that crosses the end of its run is not lost: it runs as the next message", () => {
    const host = new TwoActorHarness();
    host.toSession(inboxEvent("session.configure", { policy: "steer" as const }, "k1"));
    host.toSession(userMessage("m1", { text: "Hi" }));
    // The model answers; before the run's run.finished reaches the session, m2 arrives
    // and is steered into r1, which has already ended.
    host.completeEffect("r1.m1.a1", modelOutput("Hello!"), { deliver: false });
    host.toSession(userMessage("m2", { text: "in French" }));

    expect(host.transcript).toEqual([
      { role: "user", text: "Hi", messageId: "m1" },
      { role: "assistant", text: "Hello!", runId: "r1" },
      { role: "user", text: "in French", messageId: "m2" },
    ]);
    expect(host.events.filter((event) => event.actor === "session").slice(-2)).toEqual([
      {
        actor: "session",
        type: "message.accepted",
        payload: { messageId: "m2", type: "user.message", runId: "r1" },
      },
      { actor: "session", type: "run.started", payload: { runId: "r2", messageId: "m2" } },
    ]);
    expect(host.pendingEffects.get("r2.m1.a1")).toMatchObject({ transcriptLength: 3 });
    expect(host.run.value).toBe("calling");
  });
});
