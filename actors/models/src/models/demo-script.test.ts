import { streamText } from "ai";
import { describe, expect, it } from "vitest";
import { describeToolResults, demoScript, lastUserText } from "./demo-script.js";
import { ScriptedModel } from "./scripted-model.js";
import type { ScriptedRequest } from "./scripted-step.js";

function requestFor(text: string, retry?: number, toolNames: string[] = []): ScriptedRequest {
  return {
    messages: [
      { role: "system", content: "Be brief." },
      { role: "user", content: [{ type: "text", text: "earlier" }] },
      { role: "assistant", content: [{ type: "text", text: "You said: earlier" }] },
      { role: "user", content: [{ type: "text", text }] },
    ],
    callIndex: 0,
    toolNames,
    troupe: retry === undefined ? undefined : { retry },
  };
}

describe("demoScript", () => {
  it("echoes the last user message", () => {
    expect(demoScript(requestFor("What time is it?"))).toEqual({
      text: "You said: What time is it?",
    });
  });

  it("greets a greeting", () => {
    expect(demoScript(requestFor("Hello")).text).toBe(
      "Hello! I am the Troupe demo agent. Ask me anything.",
    );
  });

  it("streams slowly on /slow, with the given delay or 200 ms", () => {
    expect(demoScript(requestFor("/slow 25")).chunkDelayMs).toBe(25);
    expect(demoScript(requestFor("/slow")).chunkDelayMs).toBe(200);
  });

  it("reasons on /think, fails on /fail and fails only the first try on /flaky", () => {
    expect(demoScript(requestFor("/think a b c"))).toEqual({
      reasoning: "The user wrote 3 words.",
      text: "You said: a b c",
    });
    expect(demoScript(requestFor("/fail")).error).toMatchObject({
      retryable: false,
      statusCode: 400,
    });
    expect(demoScript(requestFor("/flaky x")).error).toMatchObject({ retryable: true });
    expect(demoScript(requestFor("/flaky x", 2))).toEqual({ text: "You said: x" });
  });

  it("answers the same conversation the same way on a fresh model instance", async () => {
    const answer = async () => {
      const result = streamText({
        model: new ScriptedModel(demoScript),
        messages: [{ role: "user", content: "same question" }],
        maxRetries: 0,
      });
      return result.text;
    };
    expect(await answer()).toBe("You said: same question");
    expect(await answer()).toBe(await answer());
  });

  it("reads the last user text, or the empty string without one", () => {
    expect(lastUserText(requestFor("last").messages)).toBe("last");
    expect(lastUserText([{ role: "system", content: "x" }])).toBe("");
  });

  it("calls the tools named on /tool lines, with ids from the prompt length", () => {
    const request = requestFor('/tool get_weather {"city": "Oslo"}\n/tool clock', undefined, [
      "get_weather",
      "clock",
    ]);
    expect(demoScript(request)).toEqual({
      toolCalls: [
        { toolCallId: "call-4-1", toolName: "get_weather", input: '{"city": "Oslo"}' },
        { toolCallId: "call-4-2", toolName: "clock", input: "" },
      ],
    });
    expect(demoScript(requestFor("/tool clock"))).toEqual({
      text: "I cannot call clock: no tools are offered to me.",
    });
  });

  it("answers tool results with a line per result", () => {
    const request: ScriptedRequest = {
      ...requestFor("/tool clock", undefined, ["clock"]),
      messages: [
        ...requestFor("/tool clock").messages,
        {
          role: "assistant",
          content: [{ type: "tool-call", toolCallId: "call-4-1", toolName: "clock", input: {} }],
        },
        {
          role: "tool",
          content: [
            {
              type: "tool-result",
              toolCallId: "call-4-1",
              toolName: "clock",
              output: { type: "text", value: "12:00" },
            },
            {
              type: "tool-result",
              toolCallId: "call-4-2",
              toolName: "pay",
              output: { type: "error-text", value: "declined" },
            },
            {
              type: "tool-result",
              toolCallId: "call-4-3",
              toolName: "stats",
              output: { type: "json", value: { n: 1 } },
            },
          ],
        },
      ],
    };
    expect(demoScript(request)).toEqual({
      text: 'Tool results:\nclock: 12:00\npay (error): declined\nstats: {"n":1}',
    });
    expect(describeToolResults([])).toBe("Tool results:");
  });
});
