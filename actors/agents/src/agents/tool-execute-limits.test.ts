import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AgentRegistry } from "./agent-registry.js";
import { defineAgent } from "./define-agent.js";
import { EffectCancelledError } from "@troupe/runtime";
import type { EffectContext } from "@troupe/runtime";
import {
  MAX_TOOL_RESULT_BYTES,
  type ToolEffectClass,
  type ToolExecutionContext,
  defineTool,
  InMemoryIdempotencyRecordStore,
  createToolExecuteHandler,
  InMemoryToolResultStore,
} from "@troupe/tools/internal";
import type { ToolExecuteOutput } from "@troupe/protocol";

const KEY = "s1/r1/c1";
const base = { sessionId: "s1", runId: "r1", toolCallId: "c1" };

/**
 * Tools `clock` (no parameters), `wait` (waits `waitMs` or until aborted; class as given),
 * `dump` (a long result, limit 10 bytes) and `stubborn` (never settles, ignores its signal).
 */
function setup(waitClass: ToolEffectClass = "read", waitMs = 1_000_000) {
  const executions: ToolExecutionContext[] = [];
  const started: (() => void)[] = [];
  const clock = defineTool({
    name: "clock",
    description: "Current time.",
    inputSchema: z.object({}),
    effectClass: "read",
    execute: () => Promise.resolve("12:00"),
  });
  const wait = defineTool({
    name: "wait",
    description: "Waits until aborted.",
    inputSchema: z.object({}),
    effectClass: waitClass,
    timeoutMs: 20,
    execute: async (_input, context) => {
      executions.push(context);
      started.shift()?.();
      await sleep(waitMs, undefined, { signal: context.signal });
      return "waited";
    },
  });
  const dump = defineTool({
    name: "dump",
    description: "A long result.",
    inputSchema: z.object({ bytes: z.number().int() }),
    effectClass: "read",
    maxResultBytes: 10,
    execute: ({ bytes }) => Promise.resolve("é".repeat(bytes / 2)),
  });
  const stubborn = defineTool({
    name: "stubborn",
    description: "Never settles and ignores its signal.",
    inputSchema: z.object({}),
    effectClass: "non_idempotent_write",
    timeoutMs: 20,
    execute: () => new Promise<never>(() => {}),
  });
  const agents = new AgentRegistry([
    defineAgent({ name: "assistant", instructions: "x", tools: [clock, wait, dump, stubborn] }),
  ]);
  const records = new InMemoryIdempotencyRecordStore();
  const results = new InMemoryToolResultStore();
  const handler = createToolExecuteHandler({
    toolsOf: (name) => agents.get(name).tools,
    idempotencyRecords: records,
    results,
    retryBackoffMs: 1,
  });
  const controller = new AbortController();
  const context: EffectContext = {
    signal: controller.signal,
    address: { kind: "tool-call", id: "s1" },
    effectId: "c1.x",
    hostRun: () => Promise.resolve(1),
  };
  const run = (toolName: string, input: string, signal = controller.signal) =>
    handler({ ...base, toolName, input }, { ...context, signal }) as Promise<ToolExecuteOutput>;
  const nextStart = () => new Promise<void>((resolve) => started.push(resolve));
  return { executions, records, results, controller, run, nextStart };
}

describe("tool.execute: arguments", () => {
  it("runs a tool without parameters on an empty argument text", async () => {
    expect(await setup().run("clock", "")).toEqual({ status: "succeeded", content: "12:00" });
  });

  it("answers invalid JSON and a schema mismatch with invalid_arguments, without running", async () => {
    const { records, run } = setup();
    const invalidJson = await run("dump", "{bytes: 4}");
    expect(invalidJson.status).toBe("invalid_arguments");
    expect(invalidJson.content).toContain("they are not valid JSON");
    const mismatch = await run("dump", '{"bytes":"4"}');
    expect(mismatch.status).toBe("invalid_arguments");
    expect(mismatch.content).toContain("expected number, received string\n  → at bytes");
    expect(await records.get(KEY)).toBeUndefined();
  });
});

describe("tool.execute: timeout", () => {
  it("reports a non_idempotent_write that times out once as outcome unknown, never run again (issue #15)", async () => {
    const { executions, run } = setup("non_idempotent_write");
    expect(await run("wait", "")).toEqual({
      status: "outcome_unknown",
      content:
        'Tool "wait" timed out after 20 ms. It was aborted and may or may not have taken effect.',
    });
    expect(executions).toHaveLength(1);
    expect(executions[0]?.signal.aborted).toBe(true);
  });

  it("retries a read that times out, then fails it", async () => {
    const { executions, run } = setup("read");
    expect(await run("wait", "")).toEqual({
      status: "failed",
      content: 'Tool "wait" timed out after 20 ms (each of 3 attempts).',
    });
    expect(executions.map((context) => context.attempt)).toEqual([1, 2, 3]);
  });

  it("stops waiting for a tool that ignores its signal", async () => {
    const { run } = setup();
    expect(await run("stubborn", "")).toEqual({
      status: "outcome_unknown",
      content:
        'Tool "stubborn" timed out after 20 ms. It was aborted and may or may not have taken effect.',
    });
  });
});

describe("tool.execute: result size", () => {
  it("truncates a long result with a note and keeps the full one by reference", async () => {
    const { results, run } = setup();
    const output = await run("dump", '{"bytes":40}');
    expect(output).toMatchObject({ status: "succeeded", truncated: true, resultRef: KEY });
    expect(output.content).toBe(
      "ééééé\n\n[Truncated: the result has 40 bytes; only the first 10 are shown. " +
        `The full result is stored by reference "${KEY}" and can be retrieved with readToolResult.]`,
    );
    expect(await results.get(KEY)).toBe("é".repeat(20));
    expect(await run("dump", '{"bytes":40}')).toEqual(output);
  });

  it("shows at most MAX_TOOL_RESULT_BYTES of a 3 MB result even for a copied definition claiming 8 MiB (issue #11)", async () => {
    const huge = defineTool({
      name: "huge",
      description: "A 3 MB result.",
      inputSchema: z.object({}),
      effectClass: "read",
      maxResultBytes: MAX_TOOL_RESULT_BYTES,
      execute: () => Promise.resolve("h".repeat(3_000_000)),
    });
    // Spreading keeps the brand, so only the handler can stop this copy.
    const copied = { ...huge, maxResultBytes: 8 * 1024 * 1024 };
    const agents = new AgentRegistry([
      defineAgent({ name: "assistant", instructions: "x", tools: [copied] }),
    ]);
    const results = new InMemoryToolResultStore();
    const handler = createToolExecuteHandler({
      toolsOf: (name) => agents.get(name).tools,
      idempotencyRecords: new InMemoryIdempotencyRecordStore(),
      results,
    });
    const output = (await handler(
      { ...base, toolName: "huge", input: "" },
      {
        signal: new AbortController().signal,
        address: { kind: "tool-call", id: "s1" },
        effectId: "c1.x",
        hostRun: () => Promise.resolve(1),
      },
    )) as ToolExecuteOutput;
    expect(output).toMatchObject({ status: "succeeded", truncated: true, resultRef: KEY });
    expect(output.content.startsWith("h".repeat(MAX_TOOL_RESULT_BYTES) + "\n\n[Truncated")).toBe(
      true,
    );
    expect(output.content.length).toBeLessThan(MAX_TOOL_RESULT_BYTES + 400);
    expect((await results.get(KEY))?.length).toBe(3_000_000);
  });
});

describe("tool.execute: aborts", () => {
  it.each([
    ["non_idempotent_write", "outcome_unknown", 0],
    ["read", "succeeded", 1],
  ] as const)(
    "a %s call given up by the host records no failure; the next owner gets %s",
    async (effectClass, nextStatus, reruns) => {
      const { executions, records, run, controller, nextStart } = setup(effectClass, 5);
      const reason = new Error("shard handed over");
      const started = nextStart();
      const first = run("wait", "");
      await started;
      controller.abort(reason);
      await expect(first).rejects.toBe(reason);
      expect(await records.get(KEY)).toMatchObject({ state: "started", executionAttempts: 1 });
      const next = await run("wait", "", new AbortController().signal);
      expect(next.status).toBe(nextStatus);
      expect(executions).toHaveLength(1 + reruns);
    },
  );

  it.each([
    ["read", "failed", 'Tool "wait" was cancelled while it ran.'],
    [
      "unclassified",
      "outcome_unknown",
      'Tool "wait" was cancelled while it ran; it may or may not have taken effect.',
    ],
  ] as const)(
    "a %s call cancelled while it runs ends %s and is recorded",
    async (effectClass, status, content) => {
      const { records, run, controller, nextStart } = setup(effectClass);
      const started = nextStart();
      const output = run("wait", "");
      await started;
      controller.abort(new EffectCancelledError("c1.x"));
      expect(await output).toEqual({ status, content });
      expect(await records.get(KEY)).toMatchObject({ state: "failed" });
    },
  );

  it("does not run a call whose effect was cancelled before it started", async () => {
    const { executions, run, controller } = setup();
    controller.abort(new EffectCancelledError("c1.x"));
    expect(await run("wait", "")).toEqual({
      status: "failed",
      content: "The tool call was cancelled before it ran.",
    });
    expect(executions).toHaveLength(0);
  });
});
