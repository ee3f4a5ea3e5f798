import { RELATED_TASK_META_KEY } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { callToolResultOf, mcpTaskOf, TASK_POLL_INTERVAL_MS } from "./mcp-task.js";

const ref = { sessionId: "s1", clientMessageId: "c1", taskId: "s1.c1" };

describe("run tasks as MCP tasks", () => {
  it("take their times from the events, or now before admission", () => {
    expect(
      mcpTaskOf(
        "s1.c1",
        { state: "working", sequence: 3, createdAtMs: 0, updatedAtMs: 1_000 },
        5_000,
      ),
    ).toEqual({
      taskId: "s1.c1",
      status: "working",
      ttl: null,
      createdAt: "1970-01-01T00:00:00.000Z",
      lastUpdatedAt: "1970-01-01T00:00:01.000Z",
      pollInterval: TASK_POLL_INTERVAL_MS,
    });
    const early = mcpTaskOf("s1.c1", { state: "working", sequence: 0 }, 5_000);
    expect(early.createdAt).toBe("1970-01-01T00:00:05.000Z");
  });

  it("say what an input_required or failed task waits for or failed with", () => {
    const pending = {
      kind: "approval",
      toolCallId: "t",
      tool: "send_email",
      arguments: {},
      sessionId: "s1",
    } as const;
    expect(
      mcpTaskOf("s1.c1", { state: "input_required", sequence: 1, pending }, 0).statusMessage,
    ).toBe("waiting for approval of send_email");
    const error = { code: "model_error", message: "boom" };
    expect(mcpTaskOf("s1.c1", { state: "failed", sequence: 1, error }, 0).statusMessage).toBe(
      "model_error: boom",
    );
  });

  it("give a completed run's answer as text and structured content", () => {
    const result = callToolResultOf(ref, {
      state: "completed",
      runId: "r1",
      answer: "Hi.",
      sequence: 9,
    });
    expect(result).toEqual({
      content: [{ type: "text", text: "Hi." }],
      structuredContent: {
        answer: "Hi.",
        state: "completed",
        sessionId: "s1",
        taskId: "s1.c1",
        runId: "r1",
      },
    });
    expect(
      callToolResultOf(ref, { state: "completed", answer: "Hi.", sequence: 9 }, true)._meta,
    ).toEqual({
      [RELATED_TASK_META_KEY]: { taskId: "s1.c1" },
    });
  });

  it("mark failed and cancelled runs as errors, with the partial answer", () => {
    const failed = callToolResultOf(ref, {
      state: "failed",
      error: { code: "run_active", message: "busy" },
      sequence: 2,
    });
    expect(failed.isError).toBe(true);
    expect(failed.content[0]).toEqual({ type: "text", text: "The run failed: run_active: busy" });
    const cancelled = callToolResultOf(ref, {
      state: "cancelled",
      answer: "half",
      error: { code: "cancelled", message: "stop" },
      sequence: 2,
    });
    expect(cancelled.isError).toBe(true);
    expect(cancelled.content[0]).toEqual({
      type: "text",
      text: "The run was cancelled (stop). Partial answer: half",
    });
  });
});
