import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "@troupe/tools";
import { AgentRegistry } from "./agent-registry.js";
import { defineAgent } from "./define-agent.js";
import { InvalidAgentError } from "./invalid-agent-error.js";
import { modelToolSettings, withPolicyDecisions } from "./model-tools.js";

const tool = (name: string) =>
  defineTool({
    name,
    description: `The ${name} tool.`,
    inputSchema: z.object({}),
    effectClass: "read",
    execute: () => Promise.resolve(name),
  });

const researcher = defineAgent({
  name: "researcher",
  instructions: "Research.",
  tools: [tool("search"), tool("fetch"), tool("pay")],
});

const parent = defineAgent({
  name: "assistant",
  instructions: "Help.",
  tools: [tool("search")],
  subagents: {
    research: {
      description: "Researches a question.",
      agent: researcher,
      tools: { deny: ["pay"], allow: ["se*", "pay"] },
    },
  },
});

describe("subagents", () => {
  it("the registry serves each subagent's agent as <parent>--<subagent>: tools deny, then allow; no subagents", () => {
    const agents = new AgentRegistry([parent]);
    const effective = agents.get("assistant--research");
    expect(effective.instructions).toBe("Research.");
    expect(Object.keys(effective.tools)).toEqual(["search"]);
    expect(effective.subagents).toEqual({});
    expect(agents.names).toEqual(["assistant"]);
  });

  it("the parent's model sees each subagent as a { task } tool; its calls are marked and read-classified", () => {
    const { tools } = modelToolSettings(parent, false, []);
    expect(Object.keys(tools ?? {})).toEqual(["search", "research", "ask_user"]);
    const [call] = withPolicyDecisions(
      [{ toolCallId: "c1", toolName: "research", input: '{"task":"x"}' }],
      parent,
    );
    expect(call).toEqual({
      toolCallId: "c1",
      toolName: "research",
      input: '{"task":"x"}',
      effectClass: "read",
      subagent: "assistant--research",
      decision: "allow",
    });
    const denied = defineAgent({
      name: "careful",
      instructions: "Help.",
      toolPolicy: { deny: ["research"] },
      subagents: { research: { description: "R.", agent: researcher } },
    });
    expect(
      withPolicyDecisions([{ toolCallId: "c1", toolName: "research", input: "{}" }], denied)[0]
        ?.decision,
    ).toBe("deny");
  });

  it("defineAgent refuses a subagent without description or agent, or named like a tool", () => {
    expect(() =>
      defineAgent({
        name: "bad",
        instructions: "Help.",
        tools: [tool("search")],
        subagents: {
          search: { description: "S.", agent: researcher },
          nothing: { description: "", agent: {} as never },
        },
      }),
    ).toThrow(InvalidAgentError);
  });
});
