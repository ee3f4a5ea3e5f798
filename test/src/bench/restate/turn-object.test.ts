import { describe, expect, it } from "vitest";
import { formatEndpointReadyLine, parseEndpointReadyLine } from "./endpoint-ready-line.js";
import { nextSessionState, scriptedModelStep, scriptedToolResult } from "./turn-object.js";

describe("the Restate turn's scripted steps", () => {
  it("answers a plain turn at once and asks for the lookup tool first in a one-tool turn", () => {
    expect(scriptedModelStep("hello", false)).toEqual({ type: "text", text: "You said: hello" });
    expect(scriptedModelStep("hello", true)).toEqual({
      type: "tool-call",
      toolName: "lookup",
      input: { key: "k" },
    });
    expect(scriptedToolResult({ key: "abc" })).toEqual({ key: "abc", value: 3 });
  });

  it("counts the session's turns in the state it writes", () => {
    const first = nextSessionState(null, "hello", "You said: hello");
    expect(first).toEqual({ turns: 1, lastUserText: "hello", lastAnswer: "You said: hello" });
    expect(nextSessionState(first, "again", "ok").turns).toBe(2);
  });
});

describe("the endpoint's ready line", () => {
  it("round-trips the port and ignores other lines", () => {
    expect(parseEndpointReadyLine(formatEndpointReadyLine(40123))).toBe(40123);
    expect(
      parseEndpointReadyLine("restate turn endpoint listening on 127.0.0.1:0"),
    ).toBeUndefined();
    expect(parseEndpointReadyLine("[restate] WARN: something")).toBeUndefined();
  });
});
