import { fileURLToPath } from "node:url";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { AgentRegistry } from "./agent-registry.js";
import { defineAgent } from "./define-agent.js";
import { modelToolSettings } from "./model-tools.js";
import {
  defineTool,
  McpToolCatalog,
  MCP_EXECUTION_ATTEMPT_META,
  MCP_IDEMPOTENCY_KEY_META,
} from "@troupe/tools/internal";
import { z } from "zod";

// The catalog against a real MCP server process over stdio (the SDK's
// McpServer in fixtures/echo-mcp-server.mjs); no NATS or Redis (issue #15).

const fixture = fileURLToPath(new URL("./fixtures/echo-mcp-server.mjs", import.meta.url));
const echoServer = { command: process.execPath, args: [fixture] };
const logged: { level: number; msg: string }[] = [];
const logger = pino(
  { level: "info" },
  { write: (line: string) => logged.push(JSON.parse(line) as { level: number; msg: string }) },
);
let catalog: McpToolCatalog | undefined;
afterEach(async () => {
  await catalog?.close();
  logged.length = 0;
});

const context = (attempt: number) => ({
  sessionId: "s1",
  runId: "r1",
  toolCallId: "c1",
  idempotencyKey: "s1/r1/c1",
  signal: new AbortController().signal,
  attempt,
  reportProgress: () => undefined,
});

describe("McpToolCatalog", () => {
  it("offers a server's tools as <server>__<tool> with their schema, effect classes and the idempotency key in _meta", async () => {
    const agent = defineAgent({
      name: "assistant",
      instructions: "x",
      mcpServers: { fx: { ...echoServer, tools: { stamp: { effectClass: "idempotent_write" } } } },
    });
    catalog = new McpToolCatalog({ logger });
    const agents = new AgentRegistry([agent], { mcp: catalog });
    catalog.start(agents.all);
    await agents.ready("assistant");
    const tools = agents.get("assistant").tools;
    expect(Object.keys(tools).sort()).toEqual(["fx__echo", "fx__stamp", "fx__store"]);
    expect(tools.fx__echo?.effectClass).toBe("read");
    expect(tools.fx__store?.effectClass).toBe("non_idempotent_write");
    // No annotations would be unclassified; the agent's override wins.
    expect(tools.fx__stamp?.effectClass).toBe("idempotent_write");
    expect(tools.fx__echo?.inputJsonSchema).toMatchObject({
      type: "object",
      properties: { text: { type: "string", description: "what to echo" } },
      required: ["text"],
    });
    // The model is offered the server's JSON Schema.
    const offered = modelToolSettings(agents.get("assistant"), false, []).tools?.fx__echo;
    expect(JSON.stringify(offered)).toContain("what to echo");
    const answer = await tools.fx__echo?.execute({ text: "hi" }, context(2));
    expect(JSON.parse(answer as string)).toEqual({
      text: "hi",
      meta: {
        [MCP_IDEMPOTENCY_KEY_META]: "s1/r1/c1",
        [MCP_EXECUTION_ATTEMPT_META]: 2,
        // The SDK asks for progress notifications beside our keys.
        progressToken: expect.any(Number) as number,
      },
    });
    // Arguments are checked against the server's schema before anything is sent.
    expect(tools.fx__echo?.inputSchema.safeParse({ text: 3 }).success).toBe(false);
  });

  it("filters a subagent's MCP tools by its deny list, and a local tool of the same name wins", async () => {
    const local = defineTool({
      name: "fx__echo",
      description: "The local echo.",
      inputSchema: z.object({}),
      effectClass: "read",
      execute: () => Promise.resolve("local"),
    });
    const helper = defineAgent({
      name: "helper",
      instructions: "x",
      tools: [local],
      mcpServers: { fx: echoServer },
    });
    const lead = defineAgent({
      name: "lead",
      instructions: "x",
      subagents: { helper: { description: "Helps.", agent: helper, tools: { deny: ["fx__st*"] } } },
    });
    catalog = new McpToolCatalog({ logger });
    const agents = new AgentRegistry([lead, helper], { mcp: catalog });
    catalog.start(agents.all);
    await agents.ready("helper");
    expect(Object.keys(agents.get("helper").tools).sort()).toEqual([
      "fx__echo",
      "fx__stamp",
      "fx__store",
    ]);
    expect(agents.get("helper").tools.fx__echo).toBe(local);
    expect(Object.keys(agents.get("lead--helper").tools)).toEqual(["fx__echo"]);
  });

  it("logs a server that cannot start by name and keeps the agent's other tools", async () => {
    const clock = defineTool({
      name: "clock",
      description: "Time.",
      inputSchema: z.object({}),
      effectClass: "read",
      execute: () => Promise.resolve("12:00"),
    });
    const agent = defineAgent({
      name: "assistant",
      instructions: "x",
      tools: [clock],
      mcpServers: { broken: { command: "/nonexistent/mcp-server" }, fx: echoServer },
    });
    catalog = new McpToolCatalog({ logger });
    const agents = new AgentRegistry([agent], { mcp: catalog });
    catalog.start(agents.all);
    await agents.ready("assistant");
    expect(Object.keys(agents.get("assistant").tools).sort()).toEqual([
      "clock",
      "fx__echo",
      "fx__stamp",
      "fx__store",
    ]);
    const error = logged.find((line) => line.level === 50);
    expect(error?.msg).toMatch(
      /^MCP server "broken" is unreachable: spawn \/nonexistent\/mcp-server ENOENT/,
    );
    expect(catalog.connectionOf(agent, "broken")?.state).toBe("connecting");
  });
});
