import type { SessionEvent } from "@troupe/client";
import { toolActorId } from "@troupe/protocol";
import { readUIMessageStream, type UIMessage, type UIMessageChunk } from "ai";
import { describe, expect, it } from "vitest";
import { RunStreamTranslator } from "./run-stream-translator.js";
import { approvalIdOf, parseApprovalId, parseRunMessageId, runMessageId } from "./ui-ids.js";

const S = "chat-1";
const SUB = `sub-${toolActorId(S, "r1", "call-d")}`;

function event(
  sequence: number,
  actor: string,
  type: string,
  payload: Record<string, unknown>,
  pending = 0,
): SessionEvent {
  return {
    sequence,
    subject: `troupe.session.${S}.events.${type}`,
    pending,
    event: {
      v: 1,
      id: `${actor}:${sequence}:${type}`,
      type,
      payload,
      meta: { actor, seq: sequence, timestampMs: 1 },
    } as SessionEvent["event"],
  };
}

const started = (sequence = 3, runId = "r1") =>
  event(sequence, `session/${S}`, "run.started", { runId, messageId: "cm:u1" });
const delta = (text: string, attempt: number, index: number, modelCallId = "r1.m1", actor = S) =>
  event(9, `run/${actor}`, "run.delta", {
    runId: "r1",
    modelCallId,
    attempt,
    kind: "text",
    text,
    index,
  });
const tool = (owner: string, call: string, type: string, payload: Record<string, unknown> = {}) =>
  event(10, `tool/${toolActorId(owner, "r1", call)}`, type, {
    toolCallId: call,
    runId: "r1",
    tool: "send_email",
    ...payload,
  });
const completed = (text: string) =>
  event(20, `run/${S}`, "run.completed", {
    runId: "r1",
    text,
    usage: { inputTokens: 3, outputTokens: 4 },
  });

function translate(events: SessionEvent[], runId?: string): UIMessageChunk[] {
  const translator = new RunStreamTranslator(S, runId === undefined ? {} : { runId });
  return events.flatMap((sessionEvent) => translator.push(sessionEvent));
}

/** The assistant message the AI SDK builds from the chunks (throws on a chunk it cannot apply). */
async function messageOf(chunks: UIMessageChunk[]): Promise<UIMessage> {
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  let last: UIMessage | undefined;
  for await (const message of readUIMessageStream({ stream, terminateOnError: true })) {
    last = message;
  }
  if (last === undefined) throw new Error("no message");
  return last;
}

const textOf = (message: UIMessage) =>
  message.parts.map((part) => (part.type === "text" ? part.text : "")).join("");

describe("RunStreamTranslator", () => {
  it("starts at the run's run.started with a message id and metadata derived from the run", () => {
    const chunks = translate(
      [
        event(1, `session/${S}`, "message.accepted", { messageId: "cm:u1", type: "user.message" }),
        event(2, `session/${S}`, "run.started", { runId: "r0" }),
        started(3, "r1"),
      ],
      "r1",
    );
    expect(chunks).toEqual([
      {
        type: "start",
        messageId: "troupe:chat-1:r1",
        messageMetadata: { sessionId: S, runId: "r1", runStartSequence: 3 },
      },
    ]);
  });

  it("sends run.completed's text as one part when the reader saw none of the run's deltas, and never twice", async () => {
    const missed = translate([started(), completed("Hello there")]);
    expect(missed.map((chunk) => chunk.type)).toEqual([
      "start",
      "start-step",
      "text-start",
      "text-delta",
      "text-end",
      "finish-step",
      "finish",
    ]);
    expect(textOf(await messageOf(missed))).toBe("Hello there");
    const streamed = translate([
      started(),
      delta("Hello", 1, 0),
      delta(" there", 1, 1),
      completed("Hello there"),
    ]);
    expect(streamed.filter((chunk) => chunk.type === "text-delta")).toHaveLength(2);
    expect(textOf(await messageOf(streamed))).toBe("Hello there");
    // An empty answer adds no part.
    expect(translate([started(), completed("")]).map((chunk) => chunk.type)).toEqual([
      "start",
      "finish",
    ]);
  });

  it("makes each model call a step with text and reasoning parts, and ends with finish", async () => {
    const chunks = translate([
      started(),
      event(4, `run/${S}`, "run.delta", {
        runId: "r1",
        modelCallId: "r1.m1",
        attempt: 1,
        kind: "reasoning",
        text: "hm",
        index: 0,
      }),
      delta("Hel", 1, 1),
      delta("lo", 1, 2),
      completed("Hello"),
    ]);
    expect(chunks.map((chunk) => chunk.type)).toEqual([
      "start",
      "start-step",
      "reasoning-start",
      "reasoning-delta",
      "text-start",
      "text-delta",
      "text-delta",
      "reasoning-end",
      "text-end",
      "finish-step",
      "finish",
    ]);
    expect(chunks.at(-1)).toEqual({
      type: "finish",
      finishReason: "stop",
      messageMetadata: { usage: { inputTokens: 3, outputTokens: 4 } },
    });
    const message = await messageOf(chunks);
    expect(textOf(message)).toBe("Hello");
    expect(message.parts.find((part) => part.type === "reasoning")).toMatchObject({ text: "hm" });
  });

  it("drops duplicate deltas and those of a superseded stream attempt", async () => {
    const chunks = translate([
      started(),
      delta("a", 1, 0),
      delta("a", 1, 0),
      delta("b", 1, 1),
      delta("a", 1, 0),
      completed("ab"),
    ]);
    expect(textOf(await messageOf(chunks))).toBe("ab");
    const retried = translate([started(), delta("x", 2, 0), delta("stale", 1, 3), completed("x")]);
    expect(textOf(await messageOf(retried))).toBe("x");
  });

  it("a retried attempt resets the step and streams again, so the text appears once", async () => {
    const chunks = translate([
      started(),
      delta("This answer ", 1, 0),
      delta("streams", 1, 1),
      delta("This answer ", 2, 0),
      delta("streams slowly.", 2, 1),
      completed("This answer streams slowly."),
    ]);
    expect(chunks.map((chunk) => chunk.type)).toEqual([
      "start",
      "start-step",
      "text-start",
      "text-delta",
      "text-delta",
      "reset-step",
      "text-start",
      "text-delta",
      "text-delta",
      "text-end",
      "finish-step",
      "finish",
    ]);
    const message = await messageOf(chunks);
    expect(textOf(message)).toBe("This answer streams slowly.");
    expect(message.parts.filter((part) => part.type === "text")).toHaveLength(1);
  });

  it("a reset keeps the step's other parts (streamed again after reset-step)", async () => {
    const chunks = translate([
      started(),
      delta("old", 1, 0),
      event(9, `tool/x`, "tool.progress", {}),
      tool(S, "c0", "tool.progress", { progress: 1, index: 0 }),
      delta("new", 2, 0),
      completed("new"),
    ]);
    const types = chunks.map((chunk) => chunk.type);
    expect(types.slice(types.indexOf("reset-step"))).toEqual([
      "reset-step",
      "data-tool-progress",
      "text-start",
      "text-delta",
      "text-end",
      "finish-step",
      "finish",
    ]);
    const message = await messageOf(chunks);
    expect(textOf(message)).toBe("new");
    // The progress of an unknown tool actor is not shown; the known call's survives the reset.
    expect(message.parts.filter((part) => part.type === "data-tool-progress")).toHaveLength(1);
  });

  it("a second model call is a second step; a tool call between them is a dynamic tool part", async () => {
    const chunks = translate([
      started(),
      delta("Let me check.", 1, 0),
      tool(S, "c1", "tool.started", { tool: "clock", arguments: { timeZone: "UTC" } }),
      tool(S, "c1", "tool.completed", { tool: "clock", output: { local: "12:00" }, content: "{}" }),
      delta("It is noon.", 1, 0, "r1.m2"),
      completed("It is noon."),
    ]);
    expect(chunks.filter((chunk) => chunk.type === "start-step")).toHaveLength(2);
    const message = await messageOf(chunks);
    expect(message.parts.map((part) => part.type)).toEqual([
      "step-start",
      "text",
      "dynamic-tool",
      "step-start",
      "text",
    ]);
    expect(message.parts[2]).toMatchObject({
      type: "dynamic-tool",
      toolName: "clock",
      toolCallId: "c1",
      state: "output-available",
      input: { timeZone: "UTC" },
      output: { local: "12:00" },
    });
  });

  it("an approval becomes tool-approval-request; the run then waits for approvals only", async () => {
    const translator = new RunStreamTranslator(S);
    const chunks = [
      started(),
      tool(S, "c1", "tool.approval_requested", { arguments: { to: "ada@example.com" } }),
    ].flatMap((sessionEvent) => translator.push(sessionEvent));
    expect(translator.awaitingApprovalsOnly).toBe(true);
    expect([...translator.requestedApprovalIds]).toEqual([approvalIdOf(S, "c1")]);
    expect([...translator.awaitingApprovalIds]).toEqual([approvalIdOf(S, "c1")]);
    expect(chunks.slice(-2)).toEqual([
      {
        type: "tool-input-available",
        toolCallId: "c1",
        toolName: "send_email",
        input: { to: "ada@example.com" },
        dynamic: true,
      },
      { type: "tool-approval-request", approvalId: `${S}:c1`, toolCallId: "c1" },
    ]);
    const waiting = await messageOf(chunks);
    expect(waiting.parts.at(-1)).toMatchObject({
      state: "approval-requested",
      approval: { id: `${S}:c1` },
    });
    const rest = [
      tool(S, "c1", "tool.approval_settled", { decision: "approved" }),
      tool(S, "c1", "tool.started", { arguments: { to: "ada@example.com" } }),
    ].flatMap((sessionEvent) => translator.push(sessionEvent));
    expect(translator.awaitingApprovalsOnly).toBe(false);
    // Settled: a continuation that answered it may end at the next wait.
    expect([...translator.awaitingApprovalIds]).toEqual([]);
    expect(rest).toEqual([
      { type: "tool-approval-response", approvalId: `${S}:c1`, approved: true },
    ]);
    const output = translator.push(tool(S, "c1", "tool.completed", { output: { sent: true } }));
    expect(output).toEqual([
      { type: "tool-output-available", toolCallId: "c1", output: { sent: true }, dynamic: true },
    ]);
  });

  it("a read running beside the approval keeps the run from waiting for approvals only", () => {
    const translator = new RunStreamTranslator(S);
    for (const sessionEvent of [
      started(),
      tool(S, "c1", "tool.started", { tool: "clock" }),
      tool(S, "c2", "tool.approval_requested", { arguments: {} }),
    ]) {
      translator.push(sessionEvent);
    }
    expect(translator.awaitingApprovalsOnly).toBe(false);
    translator.push(tool(S, "c1", "tool.completed", { content: "noon" }));
    expect(translator.awaitingApprovalsOnly).toBe(true);
  });

  it("a denial and a failure become tool-output-denied and tool-output-error", async () => {
    const chunks = translate([
      started(),
      tool(S, "c1", "tool.approval_requested", { arguments: {} }),
      tool(S, "c1", "tool.approval_settled", { decision: "denied" }),
      tool(S, "c1", "tool.approval_settled", { decision: "approved", alreadySettled: true }),
      tool(S, "c1", "tool.failed", {
        error: { code: "denied", message: "denied", retryable: false },
      }),
      tool(S, "c2", "tool.started", { tool: "clock", arguments: {} }),
      tool(S, "c2", "tool.failed", {
        tool: "clock",
        error: { code: "tool_failed", message: "boom", retryable: false },
      }),
      tool(S, "c3", "tool.started", { arguments: {} }),
      tool(S, "c3", "tool.outcome_unknown", { reason: "host died" }),
      completed("done"),
    ]);
    expect(chunks.filter((chunk) => chunk.type === "tool-output-denied")).toHaveLength(1);
    const message = await messageOf(chunks);
    const tools = message.parts.filter((part) => part.type === "dynamic-tool");
    expect(tools.map((part) => [part.toolCallId, part.state])).toEqual([
      ["c1", "output-denied"],
      ["c2", "output-error"],
      ["c3", "output-error"],
    ]);
    expect(tools[1]).toMatchObject({ errorText: "boom" });
    expect(tools[2]).toMatchObject({
      errorText: "The outcome of this call is unknown: host died.",
    });
  });

  it("shows a subagent's text, tool calls and approvals with ids naming its session", async () => {
    const translator = new RunStreamTranslator(S);
    const chunks = [
      started(),
      tool(S, "call-d", "tool.started", { tool: "researcher", arguments: { task: "time?" } }),
      event(11, `tool/${toolActorId(S, "r1", "call-d")}`, "subagent.started", {
        subagent: `session/${SUB}`,
        runId: "r1",
        task: "time?",
        agent: "researcher",
      }),
      event(12, `session/${SUB}`, "run.started", { runId: "r1" }),
      tool(SUB, "call-d", "tool.approval_requested", {
        tool: "clock",
        arguments: {},
        sessionId: SUB,
      }),
    ].flatMap((sessionEvent) => translator.push(sessionEvent));
    expect(translator.awaitingApprovalsOnly).toBe(true);
    expect(chunks.at(-1)).toEqual({
      type: "tool-approval-request",
      approvalId: `${SUB}:call-d`,
      toolCallId: `${SUB}:call-d`,
    });
    const later = [
      tool(SUB, "call-d", "tool.approval_settled", { decision: "approved" }),
      tool(SUB, "call-d", "tool.completed", { tool: "clock", content: "noon" }),
      delta("It is ", 1, 0, "r1.m2", SUB),
      delta("noon.", 1, 1, "r1.m2", SUB),
      delta("noon.", 1, 1, "r1.m2", SUB),
      event(15, `run/${SUB}`, "run.delta", {
        runId: "r9",
        attempt: 1,
        kind: "text",
        text: "other run",
      }),
      tool(S, "call-d", "tool.completed", { tool: "researcher", content: "It is noon." }),
      delta("The researcher says noon.", 1, 0, "r1.m2"),
      completed("The researcher says noon."),
    ].flatMap((sessionEvent) => translator.push(sessionEvent));
    const message = await messageOf([...chunks, ...later]);
    expect(textOf(message)).toBe("The researcher says noon.");
    const subagent = message.parts.find((part) => part.type === "data-subagent");
    expect(subagent).toMatchObject({
      id: `subagent:${SUB}`,
      data: { sessionId: SUB, toolCallId: "call-d", status: "running", text: "It is noon." },
    });
    const tools = message.parts.filter((part) => part.type === "dynamic-tool");
    expect(tools.map((part) => [part.toolCallId, part.state])).toEqual([
      ["call-d", "output-available"],
      [`${SUB}:call-d`, "output-available"],
    ]);
  });

  it("shows ask_user as a data-question part, updated when answered, and tool progress", async () => {
    const chunks = translate([
      started(),
      event(5, `tool/${toolActorId(S, "r1", "q")}`, "question.asked", {
        questionId: "q1",
        runId: "r1",
        text: "Which city?",
        choices: ["Paris", "Tokyo"],
      }),
      event(6, `session/${S}`, "question.answered", {
        questionId: "q1",
        text: "Paris",
        runId: "r1",
      }),
      tool(S, "c1", "tool.started", { tool: "fetch", arguments: {} }),
      tool(S, "c1", "tool.progress", { tool: "fetch", progress: 1, total: 4, index: 0 }),
      tool(S, "c1", "tool.progress", { tool: "fetch", progress: 1, total: 4, index: 0 }),
      tool(S, "c1", "tool.progress", { tool: "fetch", progress: 3, total: 4, index: 1 }),
    ]);
    expect(chunks.filter((chunk) => chunk.type === "data-tool-progress")).toHaveLength(2);
    const message = await messageOf(chunks);
    expect(message.parts.find((part) => part.type === "data-question")).toMatchObject({
      id: `question:${S}:q1`,
      data: {
        questionId: "q1",
        sessionId: S,
        text: "Which city?",
        choices: ["Paris", "Tokyo"],
        status: "answered",
        answer: "Paris",
      },
    });
    expect(message.parts.find((part) => part.type === "data-tool-progress")).toMatchObject({
      id: "progress:c1",
      data: { toolCallId: "c1", tool: "fetch", progress: 3, total: 4 },
    });
  });

  it("ends with error for run.failed and abort for run.cancelled, and ignores later events", () => {
    const failed = new RunStreamTranslator(S);
    failed.push(started());
    expect(
      failed.push(
        event(8, `run/${S}`, "run.failed", { runId: "r1", code: "model_failed", message: "no" }),
      ),
    ).toEqual([{ type: "error", errorText: "The run failed (model_failed): no" }]);
    expect(failed.ended).toBe(true);
    expect(failed.push(delta("late", 1, 0))).toEqual([]);
    const cancelled = translate([
      started(),
      delta("par", 1, 0),
      event(8, `run/${S}`, "run.cancelled", {
        runId: "r1",
        usage: { inputTokens: 0, outputTokens: 0 },
        reason: "stop",
      }),
    ]);
    expect(cancelled.slice(-3)).toEqual([
      { type: "text-end", id: "r1.m1:1:text:0" },
      { type: "finish-step" },
      { type: "abort", reason: "stop" },
    ]);
  });

  it("ignores other runs' and other sessions' events", () => {
    const chunks = translate([
      started(),
      event(4, `run/${S}`, "run.delta", { runId: "r2", attempt: 1, kind: "text", text: "x" }),
      event(5, `run/${S}`, "run.completed", {
        runId: "r2",
        text: "x",
        usage: { inputTokens: 0, outputTokens: 0 },
      }),
      event(6, `run/other`, "run.completed", {
        runId: "r1",
        text: "x",
        usage: { inputTokens: 0, outputTokens: 0 },
      }),
      tool("other", "c1", "tool.started", {}),
    ]);
    expect(chunks.map((chunk) => chunk.type)).toEqual(["start"]);
  });
});

describe("UI ids", () => {
  it("round-trip run message ids and approval ids", () => {
    expect(parseRunMessageId(runMessageId("s-1", "r12"))).toEqual({
      sessionId: "s-1",
      runId: "r12",
    });
    expect(parseRunMessageId("abc")).toBeUndefined();
    expect(parseApprovalId(approvalIdOf("sub-t1", "call:7"))).toEqual({
      ownerSessionId: "sub-t1",
      toolCallId: "call:7",
    });
    expect(parseApprovalId("no-colon")).toBeUndefined();
    expect(parseApprovalId("bad id:x")).toBeUndefined();
    expect(parseApprovalId(":x")).toBeUndefined();
  });
});
