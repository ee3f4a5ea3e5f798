import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AgentRegistry } from "./agent-registry.js";
import { defineAgent } from "./define-agent.js";
import { createModelCallHandler } from "./model-call-handler.js";
import { InMemoryTranscriptReader } from "./transcript-reader.js";
import { demoScript, ScriptedModel } from "@troupe/models";
import type { EffectContext } from "@troupe/runtime";
import {
  defineTool,
  InMemoryIdempotencyRecordStore,
  createToolExecuteHandler,
  InMemoryToolResultStore,
} from "@troupe/tools/internal";
import type { ModelCallOutput, ToolExecuteOutput } from "@troupe/protocol";

describe("a model call, its tool calls and the next model call (scripted demo)", () => {
  it("runs the tools the demo model calls and answers with their results", async () => {
    let executions = 0;
    const add = defineTool({
      name: "add",
      description: "Adds two numbers.",
      inputSchema: z.object({ a: z.number(), b: z.number() }),
      effectClass: "read",
      execute: ({ a, b }) => Promise.resolve({ sum: a + b, execution: ++executions }),
    });
    const agents = new AgentRegistry([
      defineAgent({
        name: "assistant",
        instructions: "Help.",
        model: new ScriptedModel(demoScript),
        tools: [add],
      }),
    ]);
    const transcript = new InMemoryTranscriptReader();
    const modelCall = createModelCallHandler({
      agents,
      transcript,
      env: {},
      publishDelta: () => {},
    });
    const toolExecute = createToolExecuteHandler({
      toolsOf: (name) => agents.get(name).tools,
      idempotencyRecords: new InMemoryIdempotencyRecordStore(),
      results: new InMemoryToolResultStore(),
    });
    const context: EffectContext = {
      signal: new AbortController().signal,
      address: { kind: "run", id: "s1" },
      effectId: "e",
      hostRun: () => Promise.resolve(1),
    };
    const request = {
      sessionId: "s1",
      runId: "r1",
      modelCallIndex: 1,
      retry: 1,
      withoutTools: false,
    };

    transcript.append("s1", {
      role: "user",
      text: '/tool add {"a": 2, "b": 3}\n/tool add {"a": "x"}',
      messageId: "m1",
    });
    const first = (await modelCall(
      { ...request, transcriptLength: 1 },
      context,
    )) as ModelCallOutput;
    expect(first.toolCalls).toEqual([
      {
        toolCallId: "call-2-1",
        toolName: "add",
        input: '{"a":2,"b":3}',
        effectClass: "read",
        decision: "allow",
      },
      {
        toolCallId: "call-2-2",
        toolName: "add",
        input: '{"a":"x"}',
        effectClass: "read",
        decision: "allow",
      },
    ]);

    transcript.append("s1", {
      role: "assistant",
      text: first.text,
      runId: "r1",
      toolCalls: first.toolCalls,
    });
    for (const call of first.toolCalls) {
      const output = (await toolExecute(
        { sessionId: "s1", runId: "r1", ...call },
        context,
      )) as ToolExecuteOutput;
      transcript.append("s1", { role: "tool", runId: "r1", ...call, ...output });
    }
    const second = (await modelCall(
      { ...request, modelCallIndex: 2, transcriptLength: 4 },
      context,
    )) as ModelCallOutput;
    expect(second.toolCalls).toEqual([]);
    expect(second.text).toMatch(
      /^Tool results:\nadd: {"sum":5,"execution":1}\nadd \(error\): Invalid arguments for tool "add":\n/,
    );

    // The same model call again (a retry): the same answer, and the tool is not run again.
    const again = (await toolExecute(
      { sessionId: "s1", runId: "r1", ...first.toolCalls[0]! },
      context,
    )) as ToolExecuteOutput;
    expect(again.content).toBe('{"sum":5,"execution":1}');
    expect(executions).toBe(1);
  });
});
