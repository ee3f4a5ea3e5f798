import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AgentRegistry } from "./agent-registry.js";
import { defineAgent } from "./define-agent.js";
import type { EffectContext } from "@troupe/runtime";
import type { ToolExecuteOutput } from "@troupe/protocol";
import {
  defineTool,
  type IdempotencyRecordStore,
  InMemoryIdempotencyRecordStore,
  createToolExecuteHandler,
  InMemoryToolResultStore,
} from "@troupe/tools/internal";

const KEY = "s1/r1/c1";
const input = { sessionId: "s1", runId: "r1", toolCallId: "c1", toolName: "charge", input: "{}" };

/** A `charge` tool (non_idempotent_write) that finishes when the test opens its gate. */
function setup(records: IdempotencyRecordStore) {
  let executions = 0;
  let open: (value: string) => void = () => {};
  const gate = new Promise<string>((resolve) => (open = resolve));
  const charge = defineTool({
    name: "charge",
    description: "Charges once.",
    inputSchema: z.object({}),
    effectClass: "non_idempotent_write",
    execute: async () => {
      executions += 1;
      return { charged: await gate };
    },
  });
  const agents = new AgentRegistry([
    defineAgent({ name: "assistant", instructions: "x", tools: [charge] }),
  ]);
  const handler = () =>
    createToolExecuteHandler({
      toolsOf: (name) => agents.get(name).tools,
      idempotencyRecords: records,
      results: new InMemoryToolResultStore(),
      livenessMs: 200,
      livenessRenewMs: 20,
    });
  const context = (): EffectContext => ({
    signal: new AbortController().signal,
    address: { kind: "tool-call", id: "s1" },
    effectId: "c1.x",
    hostRun: () => Promise.resolve(1),
  });
  return {
    executions: () => executions,
    open: (value: string) => open(value),
    /** One host's run of the effect (each call a new handler, as on another host). */
    run: () => handler()(input, context()) as Promise<ToolExecuteOutput>,
  };
}

describe("tool.execute: a call running on another host (issue #11)", () => {
  it("is waited for while its liveness mark is renewed, and its recorded result is reused instead of outcome unknown", async () => {
    const records = new InMemoryIdempotencyRecordStore();
    const tool = setup(records);
    const first = tool.run();
    await expect.poll(() => tool.executions()).toBe(1);
    const second = tool.run();
    // Longer than the 200 ms mark: only the executor's renewals keep it live.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect((await records.get(KEY))?.state).toBe("started");
    tool.open("42 EUR");
    const expected = { status: "succeeded", content: '{"charged":"42 EUR"}' };
    expect(await first).toEqual(expected);
    expect(await second).toEqual(expected);
    expect(tool.executions()).toBe(1);
  });

  it("records a finished call's result once the store answers again, however long it was unreachable", async () => {
    const inner = new InMemoryIdempotencyRecordStore();
    let failuresLeft = 5;
    const flaky: IdempotencyRecordStore = {
      maxExecutionAttempts: inner.maxExecutionAttempts,
      begin: (...args) => inner.begin(...args),
      keepAlive: (...args) => inner.keepAlive(...args),
      get: (key) => inner.get(key),
      complete: (...args) => {
        if (failuresLeft > 0) {
          failuresLeft -= 1;
          return Promise.reject(new Error("connect ECONNREFUSED"));
        }
        return inner.complete(...args);
      },
    };
    const tool = setup(flaky);
    const first = tool.run();
    await expect.poll(() => tool.executions()).toBe(1);
    tool.open("7 EUR");
    expect(await first).toEqual({ status: "succeeded", content: '{"charged":"7 EUR"}' });
    expect(failuresLeft).toBe(0);
    expect((await inner.get(KEY))?.state).toBe("succeeded");
    // The next owner reuses it.
    expect(await tool.run()).toEqual({ status: "succeeded", content: '{"charged":"7 EUR"}' });
    expect(tool.executions()).toBe(1);
  });

  it("is outcome unknown once its executor stopped renewing the mark (the host died)", async () => {
    const records = new InMemoryIdempotencyRecordStore();
    await records.begin(KEY, "non_idempotent_write", { livenessMs: 100 });
    const tool = setup(records);
    const output = await tool.run();
    expect(output.status).toBe("outcome_unknown");
    expect(tool.executions()).toBe(0);
  });
});
