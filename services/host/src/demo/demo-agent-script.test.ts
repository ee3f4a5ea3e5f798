import { type ScriptedRequest } from "@troupe/agents";
import { describe, expect, it } from "vitest";
import { DEMO_HELP_TEXT, demoAgentScript } from "./demo-agent-script.js";

const TOOLS = ["clock", "save_note", "send_email", "researcher", "ask_user"];

function requestFor(text: string, toolNames: readonly string[] = TOOLS): ScriptedRequest {
  return {
    messages: [
      { role: "system", content: "Be brief." },
      { role: "user", content: [{ type: "text", text }] },
    ],
    callIndex: 0,
    toolNames,
    troupe: undefined,
  };
}

describe("demoAgentScript", () => {
  it("asks the clock for the time in the city named", () => {
    expect(demoAgentScript(requestFor("what time is it in Tokyo?"))).toEqual({
      toolCalls: [{ toolCallId: "call-2-1", toolName: "clock", input: { timeZone: "Asia/Tokyo" } }],
    });
  });

  it("saves a note and sends an email through the tools", () => {
    expect(demoAgentScript(requestFor("remember the keys are under the mat"))).toEqual({
      toolCalls: [
        {
          toolCallId: "call-2-1",
          toolName: "save_note",
          input: { title: "the keys are under the…", text: "the keys are under the mat" },
        },
      ],
    });
    expect(demoAgentScript(requestFor("email ada@example.com about lunch"))).toEqual({
      toolCalls: [
        {
          toolCallId: "call-2-1",
          toolName: "send_email",
          input: { to: "ada@example.com", subject: "Lunch", body: "about lunch" },
        },
      ],
    });
  });

  it("hands a task to the researcher subagent, which reads the clock itself (issue #14)", () => {
    expect(demoAgentScript(requestFor("ask the researcher what time it is in Tokyo"))).toEqual({
      toolCalls: [
        {
          toolCallId: "call-2-1",
          toolName: "researcher",
          input: { task: "what time it is in Tokyo" },
        },
      ],
    });
    // The researcher runs the same script with only the clock offered.
    expect(demoAgentScript(requestFor("what time it is in Tokyo", ["clock", "ask_user"]))).toEqual({
      toolCalls: [{ toolCallId: "call-2-1", toolName: "clock", input: { timeZone: "Asia/Tokyo" } }],
    });
    const answered: ScriptedRequest = {
      ...requestFor("ask the researcher what time it is in Tokyo"),
      messages: [
        ...requestFor("ask the researcher what time it is in Tokyo").messages,
        {
          role: "tool",
          content: [
            {
              type: "tool-result",
              toolCallId: "call-2-1",
              toolName: "researcher",
              output: { type: "text", value: "It is 09:30 in Asia/Tokyo." },
            },
          ],
        },
      ],
    };
    expect(demoAgentScript(answered)).toEqual({
      text: "The researcher says: It is 09:30 in Asia/Tokyo.",
    });
  });

  it("gives the same tool call id for the same conversation", () => {
    const first = demoAgentScript(requestFor("time in Paris"));
    const again = demoAgentScript({ ...requestFor("time in Paris"), callIndex: 7 });
    expect(again).toEqual(first);
  });

  it("answers tool results in a sentence, including a denied email", () => {
    const request: ScriptedRequest = {
      ...requestFor("email ada@example.com hi"),
      messages: [
        ...requestFor("email ada@example.com hi").messages,
        {
          role: "assistant",
          content: [
            { type: "tool-call", toolCallId: "call-2-1", toolName: "send_email", input: {} },
          ],
        },
        {
          role: "tool",
          content: [
            {
              type: "tool-result",
              toolCallId: "call-2-1",
              toolName: "send_email",
              output: { type: "error-text", value: "Denied by the user: the call did not run." },
            },
          ],
        },
      ],
    };
    expect(demoAgentScript(request)).toEqual({ text: "I did not send the email: you denied it." });
  });

  it("answers help with what to try", () => {
    expect(demoAgentScript(requestFor("help"))).toEqual({ text: DEMO_HELP_TEXT });
    expect(DEMO_HELP_TEXT).toContain("what time is it in Tokyo?");
    expect(DEMO_HELP_TEXT).toContain("ask the researcher what time it is in Tokyo");
  });

  it("falls back to the demo script for everything else, and when the tool is not offered", () => {
    expect(demoAgentScript(requestFor("hello")).text).toBe(
      "Hello! I am the Troupe demo agent. Ask me anything.",
    );
    expect(demoAgentScript(requestFor("/tool clock {}"))).toEqual({
      toolCalls: [{ toolCallId: "call-2-1", toolName: "clock", input: "{}" }],
    });
    expect(demoAgentScript(requestFor("/slow 5")).chunkDelayMs).toBe(5);
    expect(demoAgentScript(requestFor("what time is it?", []))).toEqual({
      text: "You said: what time is it?",
    });
  });
});
