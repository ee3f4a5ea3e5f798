import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ScriptedModel, type ScriptedScript } from "@troupe/models";
import type { EffectContext } from "@troupe/runtime";
import { defineTool } from "@troupe/tools";
import { AgentRegistry } from "./agent-registry.js";
import type { ToolPolicyOverrides, ModelCallOutput } from "@troupe/protocol";
import { type AgentOptions } from "./agent-definition.js";
import { defineAgent } from "./define-agent.js";
import { createModelCallHandler } from "./model-call-handler.js";
import type { TranscriptEntry } from "./transcript-entry.js";
import { InMemoryTranscriptReader } from "./transcript-reader.js";

const weather = defineTool({
  name: "get_weather",
  description: "Current weather of a city.",
  inputSchema: z.object({ city: z.string().describe("City name") }),
  effectClass: "read",
  execute: () => Promise.resolve("sunny"),
});
const pay = defineTool({
  name: "pay",
  description: "Pays an amount.",
  inputSchema: z.object({ amount: z.number() }),
  effectClass: "non_idempotent_write",
  execute: () => Promise.resolve("paid"),
});
const clock = defineTool({
  name: "clock",
  description: "Current time.",
  inputSchema: z.object({}),
  execute: () => Promise.resolve("12:00"),
});

const asks = { decision: "ask", approvalTimeoutMs: 86_400_000 } as const;
const question: TranscriptEntry = { role: "user", text: "weather?", messageId: "m1" };
const toolTurn: TranscriptEntry[] = [
  {
    role: "assistant",
    text: "",
    runId: "r1",
    toolCalls: [{ toolCallId: "c0", toolName: "clock", input: "" }],
  },
  {
    role: "tool",
    runId: "r1",
    toolCallId: "c0",
    toolName: "clock",
    status: "succeeded",
    content: "12:00",
  },
];

async function call(
  script: ScriptedScript,
  entries: TranscriptEntry[],
  withoutTools = false,
  policy: Pick<AgentOptions, "toolPolicy" | "approvalTimeoutMs"> & {
    overrides?: ToolPolicyOverrides;
  } = {},
) {
  const model = new ScriptedModel(script);
  const { overrides, ...agentPolicy } = policy;
  const agents = new AgentRegistry([
    defineAgent({
      name: "assistant",
      instructions: "Help.",
      model,
      tools: [weather, pay, clock],
      ...agentPolicy,
    }),
  ]);
  const transcript = new InMemoryTranscriptReader();
  transcript.append("s1", ...entries);
  const handler = createModelCallHandler({ agents, transcript, env: {}, publishDelta: () => {} });
  const context: EffectContext = {
    signal: new AbortController().signal,
    address: { kind: "run", id: "s1" },
    effectId: "r1.m1.a1",
    hostRun: () => Promise.resolve(1),
  };
  const input = {
    sessionId: "s1",
    runId: "r1",
    transcriptLength: entries.length,
    modelCallIndex: 1,
    retry: 1,
    withoutTools,
    ...(overrides === undefined ? {} : { toolPolicy: overrides }),
  };
  const result = (await handler(input, context)) as ModelCallOutput;
  return { result, lastCall: model.lastCall };
}

describe("model.call with tools", () => {
  it("offers the agent's tools to the model as functions with the JSON schema of their input", async () => {
    const { lastCall } = await call([{ text: "ok" }], [question]);
    expect(lastCall?.tools?.map((tool) => tool.name)).toEqual([
      "get_weather",
      "pay",
      "clock",
      "ask_user",
    ]);
    expect(lastCall?.tools?.[0]).toMatchObject({
      type: "function",
      name: "get_weather",
      description: "Current weather of a city.",
      inputSchema: {
        type: "object",
        properties: { city: { type: "string", description: "City name" } },
        required: ["city"],
      },
    });
  });

  it("returns the tool calls with their raw arguments text, the effect class of their tool and the policy's decision", async () => {
    const { result } = await call(
      [
        {
          toolCalls: [
            { toolCallId: "c1", toolName: "get_weather", input: '{"city": "Oslo"}' },
            { toolCallId: "c2", toolName: "pay", input: '{"amount": 5,' },
            { toolCallId: "c3", toolName: "clock", input: "" },
            { toolCallId: "c4", toolName: "get_weather", input: '{"city": 7}' },
            { toolCallId: "c5", toolName: "fly", input: "{}" },
          ],
        },
      ],
      [question],
    );
    expect(result.finishReason).toBe("tool-calls");
    expect(result.toolCalls).toEqual([
      {
        toolCallId: "c1",
        toolName: "get_weather",
        input: '{"city":"Oslo"}',
        effectClass: "read",
        decision: "allow",
      },
      {
        toolCallId: "c2",
        toolName: "pay",
        input: '{"amount": 5,',
        effectClass: "non_idempotent_write",
        ...asks,
      },
      { toolCallId: "c3", toolName: "clock", input: "{}", effectClass: "unclassified", ...asks },
      // Not validated here: the tool.execute handler tells the model what is wrong.
      {
        toolCallId: "c4",
        toolName: "get_weather",
        input: '{"city":7}',
        effectClass: "read",
        decision: "allow",
      },
      // Unknown to the agent: nothing to approve, tool.execute answers "Unknown tool" at once.
      {
        toolCallId: "c5",
        toolName: "fly",
        input: "{}",
        effectClass: "unclassified",
        decision: "allow",
      },
    ]);
  });

  it("offers no tools to a call withoutTools when the prompt holds no tool parts, and drops calls made anyway", async () => {
    const { lastCall, result } = await call(
      [{ text: "final", toolCalls: [{ toolCallId: "c9", toolName: "clock", input: "" }] }],
      [question],
      true,
    );
    expect(lastCall?.tools).toBeUndefined();
    expect(result.text).toBe("final");
    expect(result.toolCalls).toEqual([]);
  });

  it("sends the tools with toolChoice none to a call withoutTools whose prompt holds tool parts", async () => {
    const { lastCall, result } = await call([{ text: "final" }], [question, ...toolTurn], true);
    expect(lastCall?.tools).toHaveLength(4);
    expect(lastCall?.toolChoice).toEqual({ type: "none" });
    expect(result).toMatchObject({ text: "final", toolCalls: [] });
  });

  it("sends earlier tool calls and results to the model", async () => {
    const { lastCall } = await call([{ text: "ok" }], [question, ...toolTurn]);
    expect(lastCall?.prompt.slice(2)).toEqual([
      {
        role: "assistant",
        content: [{ type: "tool-call", toolCallId: "c0", toolName: "clock", input: {} }],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "c0",
            toolName: "clock",
            output: { type: "text", value: "12:00" },
          },
        ],
      },
    ]);
  });
});

describe("model.call: tool policy and ask_user", () => {
  const calls = [
    { toolCallId: "c1", toolName: "get_weather", input: "{}" },
    { toolCallId: "c2", toolName: "pay", input: "{}" },
    { toolCallId: "c3", toolName: "ask_user", input: '{"question":"Where?"}' },
  ];
  const decisions = (result: ModelCallOutput) =>
    result.toolCalls.map(({ toolName, decision, approvalTimeoutMs }) => [
      toolName,
      decision,
      approvalTimeoutMs,
    ]);

  it("offers the built-in ask_user with its { question } schema", async () => {
    const { lastCall } = await call([{ text: "ok" }], [question]);
    expect(lastCall?.tools?.at(-1)).toMatchObject({
      type: "function",
      name: "ask_user",
      inputSchema: {
        type: "object",
        properties: { question: { type: "string" } },
        required: ["question"],
      },
    });
  });

  it("decides each call with the agent's policy; ask_user is always allowed, a read", async () => {
    const { result } = await call([{ toolCalls: calls }], [question], false, {
      toolPolicy: { deny: ["get_*"] },
      approvalTimeoutMs: 5000,
    });
    expect(decisions(result)).toEqual([
      ["get_weather", "deny", undefined],
      ["pay", "ask", 5000],
      ["ask_user", "allow", undefined],
    ]);
    expect(result.toolCalls[2]?.effectClass).toBe("read");
  });

  it("the session's overrides make decisions safer, never looser", async () => {
    const { result } = await call([{ toolCalls: calls }], [question], false, {
      toolPolicy: { allow: ["*"] },
      overrides: { ask: ["get_weather"], deny: ["ask_user"] },
    });
    expect(decisions(result)).toEqual([
      ["get_weather", "ask", 86_400_000],
      ["pay", "allow", undefined],
      ["ask_user", "allow", undefined],
    ]);
  });
});
