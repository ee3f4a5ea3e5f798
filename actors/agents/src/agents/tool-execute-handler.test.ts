import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AgentRegistry } from "./agent-registry.js";
import { defineAgent } from "./define-agent.js";
import type { EffectContext } from "@troupe/runtime";
import {
  type ToolEffectClass,
  type ToolExecutionContext,
  defineTool,
  InMemoryIdempotencyRecordStore,
  createToolExecuteHandler,
  InMemoryToolResultStore,
} from "@troupe/tools/internal";
import type { ToolExecuteOutput } from "@troupe/protocol";

const KEY = "s1/r1/c1";
const input = { sessionId: "s1", runId: "r1", toolCallId: "c1", toolName: "act", input: '{"n":2}' };
const classes: ToolEffectClass[] = [
  "read",
  "idempotent_write",
  "non_idempotent_write",
  "unclassified",
];

/** A tool `act` of the given class whose behaviour per attempt is scripted; it counts its executions. */
function setup(effectClass: ToolEffectClass, behaviour?: (attempt: number) => unknown) {
  const executions: ToolExecutionContext[] = [];
  const act = defineTool({
    name: "act",
    description: "Does something with n.",
    inputSchema: z.object({ n: z.number() }),
    effectClass,
    execute: ({ n }, context) => {
      executions.push(context);
      const value = behaviour?.(context.attempt) ?? { doubled: n * 2 };
      return value instanceof Error ? Promise.reject(value) : Promise.resolve(value);
    },
  });
  const agents = new AgentRegistry([
    defineAgent({ name: "assistant", instructions: "x", tools: [act] }),
  ]);
  const records = new InMemoryIdempotencyRecordStore();
  const results = new InMemoryToolResultStore();
  const handler = createToolExecuteHandler({
    toolsOf: (name) => agents.get(name).tools,
    idempotencyRecords: records,
    results,
    retryBackoffMs: 1,
  });
  const context: EffectContext = {
    signal: new AbortController().signal,
    address: { kind: "tool-call", id: "s1" },
    effectId: "c1.x",
    hostRun: () => Promise.resolve(1),
  };
  const run = (overrides: Record<string, unknown> = {}) =>
    handler({ ...input, ...overrides }, context) as Promise<ToolExecuteOutput>;
  return { executions, records, run };
}

describe("tool.execute: idempotency records", () => {
  it.each(classes)(
    "a %s call runs once with the idempotency key and is reused afterwards",
    async (effectClass) => {
      const { executions, records, run } = setup(effectClass);
      expect(await run()).toEqual({ status: "succeeded", content: '{"doubled":4}' });
      expect(executions.map(({ idempotencyKey, attempt }) => [idempotencyKey, attempt])).toEqual([
        [KEY, 1],
      ]);
      // The tool knows the session, run and call (issue #13: per-session data).
      expect(executions[0]).toMatchObject({ sessionId: "s1", runId: "r1", toolCallId: "c1" });
      expect(await run()).toEqual({ status: "succeeded", content: '{"doubled":4}' });
      expect(executions).toHaveLength(1);
      expect(await records.get(KEY)).toMatchObject({ state: "succeeded", executionAttempts: 1 });
    },
  );

  it.each(classes)(
    "a %s call with a recorded final failure is not run again",
    async (effectClass) => {
      const { executions, records, run } = setup(effectClass);
      const recorded = { status: "failed", content: 'Tool "act" failed: earlier' };
      await records.complete(KEY, "failed", recorded);
      expect(await run()).toEqual(recorded);
      expect(executions).toHaveLength(0);
    },
  );

  it.each(["read", "idempotent_write"] as const)(
    "a %s call whose earlier execution attempt started without a result runs again as execution attempt 2",
    async (effectClass) => {
      const { executions, records, run } = setup(effectClass);
      await records.begin(KEY, effectClass); // the host of execution attempt 1 died mid-execution
      expect(await run()).toEqual({ status: "succeeded", content: '{"doubled":4}' });
      expect(executions.map((context) => context.attempt)).toEqual([2]);
    },
  );

  it.each(["non_idempotent_write", "unclassified"] as const)(
    "a %s call whose earlier execution attempt started without a result is outcome unknown and never runs",
    async (effectClass) => {
      const { executions, records, run } = setup(effectClass);
      await records.begin(KEY, effectClass);
      const output = await run();
      expect(output.status).toBe("outcome_unknown");
      expect(output.content).toContain(
        `because it is a ${effectClass} tool and may already have taken effect`,
      );
      expect(await run()).toEqual(output);
      expect(executions).toHaveLength(0);
    },
  );

  it("a read whose 3 attempts all started without a result is outcome unknown", async () => {
    const { executions, records, run } = setup("read");
    for (let attempt = 0; attempt < 3; attempt += 1) await records.begin(KEY, "read");
    expect(await run()).toMatchObject({
      status: "outcome_unknown",
      content: expect.stringContaining("3 attempts started and none recorded a result") as unknown,
    });
    expect(executions).toHaveLength(0);
  });

  it("uses the effect class of the input over the tool's", async () => {
    const { executions, records, run } = setup("read");
    await records.begin(KEY, "non_idempotent_write");
    expect((await run({ effectClass: "non_idempotent_write" })).status).toBe("outcome_unknown");
    expect(executions).toHaveLength(0);
  });
});

describe("tool.execute: retries", () => {
  it.each(["read", "idempotent_write"] as const)(
    "a %s call that throws is retried up to 3 attempts in all",
    async (effectClass) => {
      const flaky = setup(effectClass, (attempt) =>
        attempt < 3 ? new Error(`boom ${attempt}`) : "third time",
      );
      expect(await flaky.run()).toEqual({ status: "succeeded", content: "third time" });
      expect(flaky.executions.map((context) => context.attempt)).toEqual([1, 2, 3]);

      const broken = setup(effectClass, (attempt) => new Error(`boom ${attempt}`));
      expect(await broken.run()).toEqual({
        status: "failed",
        content: 'Tool "act" failed (after 3 attempts): boom 3',
      });
      expect(broken.executions).toHaveLength(3);
      expect(await broken.records.get(KEY)).toMatchObject({
        state: "failed",
        executionAttempts: 3,
      });
    },
  );

  it.each(["non_idempotent_write", "unclassified"] as const)(
    "a %s call that throws fails at once, is recorded and never retried",
    async (effectClass) => {
      const { executions, records, run } = setup(effectClass, () => new Error("card declined"));
      const failed = { status: "failed", content: 'Tool "act" failed: card declined' };
      expect(await run()).toEqual(failed);
      expect(await run()).toEqual(failed);
      expect(executions).toHaveLength(1);
      expect(await records.get(KEY)).toMatchObject({ state: "failed", executionAttempts: 1 });
    },
  );
});

describe("tool.execute: lookup and input", () => {
  it("answers an unknown tool with invalid_arguments naming the available tools, without an idempotency record", async () => {
    const { records, run } = setup("read");
    expect(await run({ toolName: "fly" })).toEqual({
      status: "invalid_arguments",
      content: 'Unknown tool "fly". Available tools: act.',
    });
    expect(await records.get("s1/r1/c1")).toBeUndefined();
  });

  it("fails non-retryable for an unknown agent or a malformed input", async () => {
    const { run } = setup("read");
    await expect(run({ agent: "planner" })).rejects.toMatchObject({ code: "unknown_agent" });
    await expect(run({ toolCallId: 7 })).rejects.toMatchObject({
      code: "internal",
      retryable: false,
    });
  });

  it("accepts arguments given as an object and reads an unreadable record as a failure", async () => {
    const { records, run } = setup("read");
    expect(await run({ input: { n: 1 } })).toEqual({
      status: "succeeded",
      content: '{"doubled":2}',
    });
    await records.complete("s1/r1/c2", "succeeded", "not an output");
    expect((await run({ toolCallId: "c2" })).content).toContain(
      "recorded result of this tool call is unreadable",
    );
  });

  it("reports a failing idempotency record store as a retryable effect_failed", async () => {
    const { run, records } = setup("read");
    records.begin = () => Promise.reject(new Error("connection refused"));
    await expect(run()).rejects.toMatchObject({ code: "effect_failed", retryable: true });
  });
});

describe("tool.execute: store failures", () => {
  it("a passing failure to record the result does not turn a successful run into an error, and the tool ran once", async () => {
    const { executions, records, run } = setup("non_idempotent_write");
    const complete = records.complete.bind(records);
    let failures = 1;
    records.complete = (...args: Parameters<typeof complete>) =>
      failures-- > 0 ? Promise.reject(new Error("connection reset")) : complete(...args);
    expect(await run()).toEqual({ status: "succeeded", content: '{"doubled":4}' });
    expect(executions).toHaveLength(1);
    expect((await records.get(KEY))?.state).toBe("succeeded");
  });
});
