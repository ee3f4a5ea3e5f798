import { toolActorId } from "@troupe/protocol";
import { describe, expect, it } from "vitest";
import { inboxEvent } from "./testing/inbox.js";
import { modelOutput } from "./testing/run-kit.js";
import { userMessage } from "./testing/session-kit.js";
import { ConversationHarness } from "./testing/conversation-harness.js";
import { modelToolCall } from "./testing/tool-kit.js";

// Drives whole conversations through the machines by hand: every message one
// machine sends is fed to its target, model calls and tool executions are
// answered by the test.

describe("a conversation through the session and run machines", () => {
  it("answers, deduplicates, steers, interrupts and closes, with a gapless transcript", () => {
    const host = new ConversationHarness();

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
      "command.settled", // k1 applied
      "message.accepted", // m2 → r2
      "run.started",
      "message.accepted", // m3 steers r2
      "session.idle",
      "message.accepted", // k2
      "command.settled", // k2 applied
      "message.accepted", // m4 → r3
      "run.started",
      "message.accepted", // m5 queued, interrupts r3
      "run.started", // r4
      "session.idle",
      "command.settled", // the close applied
      "session.closed",
    ]);
    expect(host.events.filter((event) => event.actor === "run")).toEqual([
      {
        actor: "run",
        type: "run.completed",
        payload: {
          runId: "r1",
          text: "Sunny.",
          usage: { inputTokens: 20, outputTokens: 3 },
          transcriptLength: 2,
        },
      },
      {
        actor: "run",
        type: "run.completed",
        payload: {
          runId: "r2",
          text: "Bring hummus wraps.",
          usage: { inputTokens: 90, outputTokens: 9 },
          transcriptLength: 6,
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
          transcriptLength: 8,
        },
      },
      {
        actor: "run",
        type: "run.completed",
        payload: {
          runId: "r4",
          text: "OK.",
          usage: { inputTokens: 60, outputTokens: 1 },
          transcriptLength: 10,
        },
      },
    ]);
    expect(host.session.context).toMatchObject({ runCount: 4, transcriptLength: 10, queue: [] });
    expect(host.run.context).toEqual({ sessionId: "s1", lastRunId: "r4" });
  });

  it("a steer that crosses the end of its run is not lost: it runs as the next message", () => {
    const host = new ConversationHarness();
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

describe("a conversation with tool calls through the session, run and tool call machines", () => {
  it("runs a response's tools (read beside the ordered writes), answers with their results, and cancels a run mid-tool", () => {
    const host = new ConversationHarness();
    const weather = modelToolCall("call_w", { toolName: "get_weather" });
    const book = modelToolCall("call_b", {
      toolName: "book_table",
      effectClass: "non_idempotent_write",
    });
    const email = modelToolCall("call_e", {
      toolName: "send_email",
      effectClass: "idempotent_write",
    });

    // 1. The model asks for a read and two writes: the read and the first write start.
    host.toSession(userMessage("m1", { text: "Weather in Lisbon? Book a table and tell Ana." }));
    host.completeEffect(
      "r1.m1.a1",
      modelOutput("On it.", 20, 8, {
        finishReason: "tool-calls",
        toolCalls: [weather, book, email],
      }),
    );
    expect(host.run.value).toBe("runningTools");
    expect([...host.pendingToolCalls.keys()]).toEqual(["call_w", "call_b"]);
    expect(host.pendingToolCalls.get("call_b")).toEqual({
      actorId: toolActorId("s1", "r1", "call_b"),
      input: {
        sessionId: "s1",
        runId: "r1",
        toolCallId: "call_b",
        toolName: "book_table",
        input: book.input,
        effectClass: "non_idempotent_write",
        idempotencyKey: "s1/r1/call_b",
      },
    });

    // 2. The first write succeeds, so the second starts; the results come back in any order.
    host.completeToolCall("call_b", { status: "succeeded", content: "Table for 2 at 20:00." });
    expect([...host.pendingToolCalls.keys()]).toEqual(["call_w", "call_e"]);
    host.completeToolCall("call_e", { status: "failed", content: "SMTP refused" });
    expect(host.run.value).toBe("runningTools");
    host.completeToolCall("call_w", {
      status: "succeeded",
      content: "19 °C, clear",
      truncated: false,
    });

    // 3. With every result in, the model is called again and answers.
    expect(host.run.value).toBe("calling");
    expect(host.pendingEffects.get("r1.m2.a1")).toMatchObject({
      transcriptLength: 5,
      modelCallIndex: 2,
    });
    host.completeEffect("r1.m2.a1", modelOutput("Booked; 19 °C. I could not email Ana.", 60, 12));
    expect(host.session.value).toBe("idle");
    expect([...host.tools.values()].map((tool) => tool.value)).toEqual(["done", "done", "done"]);

    // 4. A second run is cancelled while its tool runs: the tool call is cancelled
    //    and the transcript still answers every tool call.
    host.toSession(userMessage("m2", { text: "Book another one" }));
    host.completeEffect(
      "r2.m1.a1",
      modelOutput("", 15, 3, {
        toolCalls: [
          modelToolCall("call_x", { toolName: "book_table", effectClass: "non_idempotent_write" }),
        ],
      }),
    );
    host.toSession(inboxEvent("run.cancel", { reason: "changed my mind" }, "c1"));
    expect(host.session.value).toBe("idle");
    expect(host.run.value).toBe("idle");
    expect(host.cancelledToolCalls).toEqual(["call_x"]);
    // The aborted execution still ends, as an event only (the run no longer waits).
    host.completeToolCall("call_x", { status: "failed", content: "aborted" });
    expect(host.pendingToolCalls.size).toBe(0);
    expect(host.pendingEffects.size).toBe(0);

    expect(host.transcript).toEqual([
      { role: "user", text: "Weather in Lisbon? Book a table and tell Ana.", messageId: "m1" },
      {
        role: "assistant",
        text: "On it.",
        runId: "r1",
        toolCalls: [weather, book, email].map(({ toolCallId, toolName, input }) => ({
          toolCallId,
          toolName,
          input,
        })),
      },
      {
        role: "tool",
        runId: "r1",
        toolCallId: "call_w",
        toolName: "get_weather",
        status: "succeeded",
        content: "19 °C, clear",
      },
      {
        role: "tool",
        runId: "r1",
        toolCallId: "call_b",
        toolName: "book_table",
        status: "succeeded",
        content: "Table for 2 at 20:00.",
      },
      {
        role: "tool",
        runId: "r1",
        toolCallId: "call_e",
        toolName: "send_email",
        status: "failed",
        content: "SMTP refused",
      },
      { role: "assistant", text: "Booked; 19 °C. I could not email Ana.", runId: "r1" },
      { role: "user", text: "Book another one", messageId: "m2" },
      {
        role: "assistant",
        text: "",
        runId: "r2",
        toolCalls: [{ toolCallId: "call_x", toolName: "book_table", input: '{"call":"call_x"}' }],
      },
      {
        role: "tool",
        runId: "r2",
        toolCallId: "call_x",
        toolName: "book_table",
        status: "cancelled",
        content: "Not finished: the run was cancelled before this tool call had a result.",
      },
    ]);
    expect(host.eventTypes("tool")).toEqual([
      "tool.started", // call_w
      "tool.started", // call_b
      "tool.completed", // call_b
      "tool.started", // call_e
      "tool.failed", // call_e
      "tool.completed", // call_w
      "tool.started", // call_x
      "tool.failed", // call_x, after the cancellation
    ]);
    expect(host.eventTypes("run")).toEqual(["run.completed", "run.cancelled"]);
    expect(host.session.context).toMatchObject({ runCount: 2, transcriptLength: 9 });
  });
});
