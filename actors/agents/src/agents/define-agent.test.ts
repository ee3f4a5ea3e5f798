import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "@troupe/tools";
import { ScriptedModel } from "@troupe/models";
import { AgentRegistry } from "./agent-registry.js";
import { defineAgent } from "./define-agent.js";
import { InvalidAgentError } from "./invalid-agent-error.js";
import { UnknownAgentError } from "./unknown-agent-error.js";

const lookup = defineTool({
  name: "lookup",
  description: "Looks a word up.",
  inputSchema: z.object({ word: z.string() }),
  effectClass: "read",
  execute: ({ word }) => Promise.resolve(word.length),
});

function invalid(action: () => unknown): InvalidAgentError {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidAgentError);
    return error as InvalidAgentError;
  }
  throw new Error("expected the call to throw");
}

describe("defineAgent", () => {
  it("fills in the defaults: 50 model calls, 60 s idle / 10 min call timeouts, enqueue, no model, no tools", () => {
    const agent = defineAgent({ name: "assistant", instructions: "Help." });
    expect(agent).toEqual({
      name: "assistant",
      instructions: "Help.",
      model: undefined,
      tools: {},
      mcpServers: {},
      subagents: {},
      limits: { maxModelCalls: 50, modelIdleTimeoutMs: 60_000, modelCallTimeoutMs: 600_000 },
      settings: { policy: "enqueue" },
      toolPolicy: { allow: [], ask: [], deny: [] },
      approvalTimeoutMs: 86_400_000,
    });
    expect(Object.isFrozen(agent)).toBe(true);
  });

  it("keeps the given model, limits and settings", () => {
    const model = new ScriptedModel([]);
    const agent = defineAgent({
      name: "research_2",
      instructions: "Dig.",
      model,
      limits: { maxModelCalls: 3, modelIdleTimeoutMs: 250 },
      settings: { policy: "steer" },
    });
    expect(agent.model).toBe(model);
    expect(agent.limits).toEqual({
      maxModelCalls: 3,
      modelIdleTimeoutMs: 250,
      modelCallTimeoutMs: 600_000,
    });
    expect(agent.settings.policy).toBe("steer");
    expect(defineAgent({ name: "a", instructions: "x", model: "openai:gpt-4o-mini" }).model).toBe(
      "openai:gpt-4o-mini",
    );
  });

  it("refuses model timeouts that are not whole ms from 1 to 2^31 - 1 (issue #11)", () => {
    const error = invalid(() =>
      defineAgent({
        name: "a",
        instructions: "x",
        limits: { modelIdleTimeoutMs: 0, modelCallTimeoutMs: 2 ** 31 },
      }),
    );
    expect(error.issues.map((issue) => issue.path.join("."))).toEqual([
      "limits.modelIdleTimeoutMs",
      "limits.modelCallTimeoutMs",
    ]);
    expect(() =>
      defineAgent({ name: "a", instructions: "x", limits: { modelIdleTimeoutMs: 1.5 } }),
    ).toThrow(/limits\.modelIdleTimeoutMs/);
  });

  it("takes a concurrency limit on model calls of a whole number ≥ 1, absent by default", () => {
    const agent = defineAgent({
      name: "a",
      instructions: "x",
      limits: { maxConcurrentModelCalls: 5 },
    });
    expect(agent.limits.maxConcurrentModelCalls).toBe(5);
    expect(defineAgent({ name: "a", instructions: "x" }).limits).not.toHaveProperty(
      "maxConcurrentModelCalls",
    );
    for (const bad of [0, 2.5, -1]) {
      const error = invalid(() =>
        defineAgent({ name: "a", instructions: "x", limits: { maxConcurrentModelCalls: bad } }),
      );
      expect(error.issues.map((issue) => issue.path.join("."))).toEqual([
        "limits.maxConcurrentModelCalls",
      ]);
    }
  });

  it("lists every problem of a bad definition at once", () => {
    const error = invalid(() =>
      defineAgent({
        name: "bad name!",
        instructions: "",
        model: "gemini:pro",
        limits: { maxModelCalls: 0 },
        settings: { policy: "later" as "enqueue" },
        tools: { "no spaces": lookup },
      }),
    );
    expect(error.code).toBe("invalid_agent");
    expect(error.issues.map((issue) => issue.path.join("."))).toEqual([
      "name",
      "instructions",
      "limits.maxModelCalls",
      "settings.policy",
      "model",
      "tools.no spaces",
    ]);
    expect(error.message).toContain('Invalid agent "bad name!"');
    expect(error.message).toContain("Accepted forms: scripted");
  });

  it("takes MCP servers with their defaults and refuses bad entries, naming each (issue #15)", () => {
    const agent = defineAgent({
      name: "files",
      instructions: "x",
      mcpServers: {
        fs: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"] },
        remote: { url: "http://127.0.0.1:3001/mcp", headers: { Authorization: "Bearer t" } },
      },
    });
    expect(agent.mcpServers).toEqual({
      fs: {
        command: "npx",
        args: ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"],
        tools: {},
        connectTimeoutMs: 10_000,
      },
      remote: {
        url: "http://127.0.0.1:3001/mcp",
        headers: { Authorization: "Bearer t" },
        transport: "auto",
        tools: {},
        connectTimeoutMs: 10_000,
      },
    });
    const error = invalid(() =>
      defineAgent({
        name: "files",
        instructions: "x",
        mcpServers: {
          "bad name": { command: "x" },
          a__b: { command: "x" },
          nothing: {} as { command: string },
          ftp: { url: "ftp://example.org/mcp" },
          fs: { command: "x", tools: { write_file: { effectClass: "sometimes" as "read" } } },
        },
      }),
    );
    expect(error.issues.map((issue) => issue.path.join("."))).toEqual([
      "mcpServers.bad name",
      "mcpServers.a__b",
      "mcpServers.nothing",
      "mcpServers.ftp.url",
      "mcpServers.fs.tools.write_file.effectClass",
    ]);
    expect(error.issues[2]?.message).toBe(
      "must be { command, args?, env?, cwd? } (stdio) or { url, headers? } (Streamable HTTP)",
    );
    expect(error.issues[3]?.message).toBe("must be an http: or https: URL");
  });

  it("refuses a name longer than 64 characters and a model that is not a model", () => {
    expect(
      invalid(() => defineAgent({ name: "a".repeat(65), instructions: "x" })).issues[0]?.path,
    ).toEqual(["name"]);
    const notAModel = { doStream: 1 } as unknown as ScriptedModel;
    expect(
      invalid(() => defineAgent({ name: "a", instructions: "x", model: notAModel })).issues[0]
        ?.message,
    ).toBe("must be a model spec string or an AI SDK language model");
  });
});

describe("AgentRegistry", () => {
  const assistant = defineAgent({ name: "assistant", instructions: "Help." });
  const researcher = defineAgent({ name: "researcher", instructions: "Dig." });

  it("finds agents by name and uses the first (or the named) default for sessions that name none", () => {
    const agents = new AgentRegistry([assistant, researcher]);
    expect(agents.get("researcher")).toBe(researcher);
    expect(agents.get(undefined)).toBe(assistant);
    expect(agents.names).toEqual(["assistant", "researcher"]);
    expect(agents.has("assistant")).toBe(true);
    expect(
      new AgentRegistry([assistant, researcher], { defaultAgent: "researcher" }).defaultAgent,
    ).toBe(researcher);
  });

  it("names the served agents when an unknown agent is asked for", () => {
    const agents = new AgentRegistry([assistant, researcher]);
    expect(() => agents.get("planner")).toThrow(UnknownAgentError);
    expect(() => agents.get("planner")).toThrow(
      'Unknown agent "planner". This host serves: assistant, researcher.',
    );
  });

  it("refuses an empty list, duplicate names and a default that is not served", () => {
    expect(invalid(() => new AgentRegistry([])).message).toContain("at least one agent");
    expect(invalid(() => new AgentRegistry([assistant, assistant])).message).toContain(
      "must be unique",
    );
    expect(invalid(() => new AgentRegistry([assistant], { defaultAgent: "x" })).message).toContain(
      "not among the served agents (assistant)",
    );
  });

  it("takes a tool policy and an approval timeout, and refuses a tool named ask_user", () => {
    const agent = defineAgent({
      name: "assistant",
      instructions: "Help.",
      toolPolicy: { allow: ["*"], deny: ["wipe_*"] },
      approvalTimeoutMs: 60_000,
    });
    expect(agent.toolPolicy).toEqual({ allow: ["*"], ask: [], deny: ["wipe_*"] });
    expect(agent.approvalTimeoutMs).toBe(60_000);
    expect(() =>
      defineAgent({
        name: "assistant",
        instructions: "Help.",
        approvalTimeoutMs: 0,
        toolPolicy: { allow: [""] },
      }),
    ).toThrow(/approvalTimeoutMs[\s\S]*toolPolicy|toolPolicy[\s\S]*approvalTimeoutMs/);
    expect(() =>
      defineAgent({
        name: "assistant",
        instructions: "Help.",
        tools: [
          defineTool({
            name: "ask_user",
            description: "Mine.",
            inputSchema: z.object({}),
            execute: () => Promise.resolve("x"),
          }),
        ],
      }),
    ).toThrow(/built-in tool/);
  });
});
