import { describe, expect, it } from "vitest";
import { a2aReadyLine } from "./a2a-ready-line.js";

const agents = [
  {
    name: "demo",
    cardUrl: "http://127.0.0.1:41241/agents/demo/.well-known/agent-card.json",
    endpoint: "http://127.0.0.1:41241/agents/demo",
  },
];

describe("a2aReadyLine", () => {
  it("says that a server without a token is bound to loopback only", () => {
    const line = a2aReadyLine(
      { url: "http://127.0.0.1:41241", agents, tokenRequired: false },
      false,
    );
    expect(line).toBe(
      "troupe a2a: serving demo http://127.0.0.1:41241/agents/demo over A2A " +
        "(no token: bound to loopback only, set --token to serve other machines); " +
        "agent card http://127.0.0.1:41241/.well-known/agent-card.json",
    );
  });

  it("says a token is required, and gives the same facts as JSON", () => {
    const server = { url: "http://10.0.0.5:8080", agents, tokenRequired: true };
    expect(a2aReadyLine(server, false)).toContain("(bearer token required)");
    expect(JSON.parse(a2aReadyLine(server, true))).toEqual({
      ready: true,
      url: "http://10.0.0.5:8080",
      auth: "bearer",
      agents,
    });
  });
});
