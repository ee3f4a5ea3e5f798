import { defineAgent, defineTool } from "@troupe/agents";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { a2aAgentCard } from "./a2a-agent-card.js";

const agent = defineAgent({
  name: "helper",
  instructions: "You help.\n  Be brief.",
  tools: [
    defineTool({
      name: "lookup",
      description: "Looks a word up.",
      inputSchema: z.object({ word: z.string() }),
      effectClass: "read",
      execute: ({ word }) => Promise.resolve(word),
    }),
  ],
});

describe("a2aAgentCard", () => {
  it("describes the agent, its tools as skills, and one JSON-RPC interface for protocols 1.0 and 0.3", () => {
    const card = a2aAgentCard({ agent, url: "http://127.0.0.1:1/agents/helper", bearer: false });
    expect(card).toMatchObject({
      name: "helper",
      description: "You help. Be brief.",
      capabilities: { streaming: true, pushNotifications: false },
      securitySchemes: {},
      securityRequirements: [],
    });
    expect(
      card.supportedInterfaces.map((entry) => [
        entry.protocolBinding,
        entry.protocolVersion,
        entry.url,
      ]),
    ).toEqual([
      ["JSONRPC", "1.0", "http://127.0.0.1:1/agents/helper"],
      ["JSONRPC", "0.3", "http://127.0.0.1:1/agents/helper"],
    ]);
    expect(card.skills.map((skill) => [skill.id, skill.description])).toEqual([
      ["lookup", "Looks a word up."],
    ]);
  });

  it("declares and requires the bearer scheme when a token is set", () => {
    const card = a2aAgentCard({ agent, url: "http://127.0.0.1:1/agents/helper", bearer: true });
    expect(card.securitySchemes["bearer"]?.scheme).toMatchObject({
      $case: "httpAuthSecurityScheme",
      value: { scheme: "Bearer" },
    });
    expect(card.securityRequirements).toEqual([{ schemes: { bearer: { list: [] } } }]);
  });
});
