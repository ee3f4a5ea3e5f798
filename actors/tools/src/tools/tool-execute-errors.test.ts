import { setTimeout as sleep } from "node:timers/promises";
import type { ToolExecuteOutput, ToolProgress } from "@troupe/protocol";
import type { EffectContext } from "@troupe/runtime";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { type ToolEffectClass, type ToolExecutionContext, defineTool } from "./define-tool.js";
import { InMemoryIdempotencyRecordStore } from "./in-memory-idempotency-record-store.js";
import { ToolOutcomeUnknownError, ToolReportedError } from "./tool-call-errors.js";
import { TOOL_PROGRESS_INTERVAL_MS, createToolExecuteHandler } from "./tool-execute-handler.js";
import { InMemoryToolResultStore } from "./tool-result-store.js";

// What a tool's execute may throw to say "the tool answered with an error" or
// "the answer was lost", and progress reports (issue #15).

const base = { sessionId: "s1", runId: "r1", toolCallId: "c1" };

function setup(
  effectClass: ToolEffectClass,
  execute: (context: ToolExecutionContext) => Promise<unknown>,
) {
  const executions: number[] = [];
  const published: { sessionId: string; actor: string; payload: ToolProgress }[] = [];
  const tool = defineTool({
    name: "remote",
    description: "A remote tool.",
    inputSchema: z.object({}),
    effectClass,
    execute: (_input, context) => {
      executions.push(context.attempt);
      return execute(context);
    },
  });
  const records = new InMemoryIdempotencyRecordStore();
  const handler = createToolExecuteHandler({
    toolsOf: () => Promise.resolve({ remote: tool }),
    idempotencyRecords: records,
    results: new InMemoryToolResultStore(),
    retryBackoffMs: 1,
    publishProgress: (progress) => published.push(progress),
  });
  const context: EffectContext = {
    signal: new AbortController().signal,
    address: { kind: "tool", id: "t1" },
    effectId: "c1.x",
    hostRun: () => Promise.resolve(1),
  };
  const run = () =>
    handler({ ...base, toolName: "remote", input: "" }, context) as Promise<ToolExecuteOutput>;
  return { executions, published, records, run };
}

describe("tool.execute: errors a tool reports", () => {
  it("records a ToolReportedError of a read as failed without running it again", async () => {
    const { executions, run, records } = setup("read", () =>
      Promise.reject(new ToolReportedError("no such file: /tmp/x")),
    );
    expect(await run()).toEqual({
      status: "failed",
      content: 'Tool "remote" failed: no such file: /tmp/x',
    });
    expect(executions).toEqual([1]);
    expect((await records.get("s1/r1/c1"))?.state).toBe("failed");
  });

  it("reports a lost answer of a non_idempotent_write as outcome unknown, run once", async () => {
    const { executions, run } = setup("non_idempotent_write", () =>
      Promise.reject(new ToolOutcomeUnknownError('connection to MCP server "pay" closed')),
    );
    const output = await run();
    expect(output.status).toBe("outcome_unknown");
    expect(output.content).toContain('connection to MCP server "pay" closed');
    expect(output.content).toContain("was not run again");
    expect(executions).toEqual([1]);
  });

  it("runs a read whose answer was lost again, and keeps the answer of the next attempt", async () => {
    let calls = 0;
    const { executions, run } = setup("read", () =>
      ++calls === 1
        ? Promise.reject(new ToolOutcomeUnknownError("connection closed"))
        : Promise.resolve("ok"),
    );
    expect(await run()).toEqual({ status: "succeeded", content: "ok" });
    expect(executions).toEqual([1, 2]);
  });
});

describe("tool.execute: progress", () => {
  it("publishes the first report at once and the latest of a burst after the interval, none after the end", async () => {
    const { published, run } = setup("read", async ({ reportProgress }) => {
      for (let step = 1; step <= 5; step++) reportProgress?.({ progress: step, total: 5 });
      await sleep(TOOL_PROGRESS_INTERVAL_MS + 100);
      reportProgress?.({ progress: 6, total: 6, message: "done" });
      return "ok";
    });
    await run();
    await sleep(TOOL_PROGRESS_INTERVAL_MS + 50);
    expect(published.map(({ payload }) => [payload.progress, payload.index])).toEqual([
      [1, 0],
      [5, 1],
      [6, 2],
    ]);
    expect(published[2]).toEqual({
      sessionId: "s1",
      actor: "tool/t1",
      payload: {
        toolCallId: "c1",
        runId: "r1",
        tool: "remote",
        progress: 6,
        total: 6,
        message: "done",
        index: 2,
      },
    });
  });
});
