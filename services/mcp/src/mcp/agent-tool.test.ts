import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import {
  agentTool,
  idempotentTarget,
  parseAgentToolArguments,
  servedAgentOf,
} from "./agent-tool.js";

describe("agent tools", () => {
  it("describe an agent by the first line of its instructions", () => {
    expect(servedAgentOf({ name: "a", instructions: "Answers questions.\nMore detail." })).toEqual({
      name: "a",
      description: "Answers questions.",
    });
    const long = `You are the demo agent. ${"Use tools well. ".repeat(40)}`;
    expect(servedAgentOf({ name: "b", instructions: long }).description).toBe(
      "You are the demo agent.",
    );
    const unbroken = "x".repeat(400);
    const cut = servedAgentOf({ name: "c", instructions: unbroken }).description;
    expect(cut).toHaveLength(300);
    expect(cut.endsWith("…")).toBe(true);
  });

  it("name the tool after the agent, input { message, sessionId? }, tasks optional", () => {
    const tool = agentTool({ name: "helper", description: "Helps." });
    expect(tool.name).toBe("helper");
    expect(tool.description?.startsWith("Helps. ")).toBe(true);
    expect(tool.inputSchema.required).toEqual(["message"]);
    expect(Object.keys(tool.inputSchema.properties ?? {})).toEqual(["message", "sessionId"]);
    expect(tool.execution).toEqual({ taskSupport: "optional" });
    expect(tool.outputSchema?.required).toEqual(["answer", "state", "sessionId", "taskId"]);
  });

  it("accept a message with or without a session id", () => {
    expect(parseAgentToolArguments({ message: "hi" })).toEqual({ message: "hi" });
    expect(parseAgentToolArguments({ message: "hi", sessionId: "s-1" })).toEqual({
      message: "hi",
      sessionId: "s-1",
    });
  });

  it.each([
    [undefined, /message must be a non-empty string/],
    [{ message: "  " }, /message must be a non-empty string/],
    [{ message: 3 }, /message must be a non-empty string/],
    [{ message: "hi", sessionId: "a.b" }, /sessionId "a.b" is not a session id/],
    [{ message: "hi", extra: 1 }, /Unknown argument extra/],
  ])("refuse %j with InvalidParams", (value, message) => {
    let caught: unknown;
    try {
      parseAgentToolArguments(value);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(McpError);
    expect((caught as McpError).code).toBe(-32602);
    expect((caught as McpError).message).toMatch(message);
  });

  it("derive a session and a client message id from a caller's idempotency key, the same for every retry (issue #15)", () => {
    const first = idempotentTarget({ "dev.troupe/idempotency-key": "s1/r1/c1", progressToken: 1 });
    expect(first?.clientMessageId).toMatch(/^mcp-[0-9a-f]{40}$/);
    expect(first?.sessionId).toBe(first?.clientMessageId);
    expect(idempotentTarget({ "dev.troupe/idempotency-key": "s1/r1/c1" })).toEqual(first);
    expect(idempotentTarget({ "dev.troupe/idempotency-key": "s1/r1/c2" })).not.toEqual(first);
    expect(idempotentTarget({ progressToken: 1 })).toBeUndefined();
    expect(idempotentTarget(undefined)).toBeUndefined();
  });
});
