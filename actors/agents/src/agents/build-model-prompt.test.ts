import { describe, expect, it } from "vitest";
import { REUSE_MESSAGES_FROM_ENTRIES, buildModelPrompt } from "./build-model-prompt.js";
import { defineAgent } from "./define-agent.js";
import { MISSING_TOOL_RESULT_TEXT } from "./tool-messages.js";
import type { ToolTranscriptEntry, TranscriptEntry } from "./transcript-entry.js";

const agent = defineAgent({ name: "assistant", instructions: "Help." });

const call = (toolCallId: string, toolName: string, input: string) => ({
  toolCallId,
  toolName,
  input,
});
const result = (
  toolCallId: string,
  toolName: string,
  status: ToolTranscriptEntry["status"],
  content: string,
): TranscriptEntry => ({
  role: "tool",
  runId: "r1",
  toolCallId,
  toolName,
  status,
  content,
});
const callPart = (toolCallId: string, toolName: string, input: unknown) => ({
  type: "tool-call",
  toolCallId,
  toolName,
  input,
});
const resultPart = (toolCallId: string, toolName: string, type: string, value: string) => ({
  type: "tool-result",
  toolCallId,
  toolName,
  output: { type, value },
});

describe("buildModelPrompt with tool calls", () => {
  it("maps an assistant turn with tool calls and its results to an assistant and a tool message", () => {
    const entries: TranscriptEntry[] = [
      { role: "user", text: "weather and pay", messageId: "m1" },
      {
        role: "assistant",
        text: "Let me check.",
        runId: "r1",
        toolCalls: [
          call("c1", "get_weather", '{"city":"Oslo"}'),
          call("c2", "pay", ""),
          call("c3", "get_weather", "{oops"),
        ],
      },
      result("c2", "pay", "outcome_unknown", 'The outcome of tool "pay" is unknown'),
      result("c1", "get_weather", "succeeded", "sunny"),
      result("c3", "get_weather", "invalid_arguments", "not valid JSON"),
      { role: "assistant", text: "Sunny; the payment is unclear.", runId: "r1" },
    ];
    expect(buildModelPrompt(agent, entries)).toEqual({
      instructions: "Help.",
      messages: [
        { role: "user", content: "weather and pay" },
        {
          role: "assistant",
          content: [
            { type: "text", text: "Let me check." },
            callPart("c1", "get_weather", { city: "Oslo" }),
            callPart("c2", "pay", {}),
            callPart("c3", "get_weather", {}),
          ],
        },
        {
          role: "tool",
          content: [
            resultPart("c2", "pay", "error-text", 'The outcome of tool "pay" is unknown'),
            resultPart("c1", "get_weather", "text", "sunny"),
            resultPart("c3", "get_weather", "error-text", "not valid JSON"),
          ],
        },
        { role: "assistant", content: "Sunny; the payment is unclear." },
      ],
    });
  });

  it("gives a call without a result an error result and leaves out results without their call", () => {
    const entries: TranscriptEntry[] = [
      { role: "user", text: "go", messageId: "m1" },
      {
        role: "assistant",
        text: "",
        runId: "r1",
        toolCalls: [call("c1", "slow", "{}"), call("c2", "fast", "{}")],
      },
      result("c2", "fast", "succeeded", "done"),
      result("c9", "ghost", "succeeded", "orphan"),
      result("c2", "fast", "succeeded", "duplicate"),
      { role: "user", text: "never mind", messageId: "m2" },
    ];
    expect(buildModelPrompt(agent, entries).messages).toEqual([
      { role: "user", content: "go" },
      { role: "assistant", content: [callPart("c1", "slow", {}), callPart("c2", "fast", {})] },
      {
        role: "tool",
        content: [
          resultPart("c2", "fast", "text", "done"),
          resultPart("c1", "slow", "error-text", MISSING_TOOL_RESULT_TEXT),
        ],
      },
      { role: "user", content: "never mind" },
    ]);
  });

  it("places a user message that arrived while calls waited after their results", () => {
    const entries: TranscriptEntry[] = [
      { role: "assistant", text: "", runId: "r1", toolCalls: [call("c1", "clock", "")] },
      { role: "user", text: "also, hurry", messageId: "m2" },
      result("c1", "clock", "succeeded", "12:00"),
    ];
    expect(buildModelPrompt(agent, entries).messages.map((message) => message.role)).toEqual([
      "assistant",
      "tool",
      "user",
    ]);
  });

  it("ends with error results when the transcript ends with unanswered calls, and skips unknown roles", () => {
    const entries = [
      { role: "assistant", text: "", runId: "r1", toolCalls: [call("c1", "clock", "")] },
      { role: "system", text: "unknown role" },
    ] as TranscriptEntry[];
    expect(buildModelPrompt(agent, entries).messages).toEqual([
      { role: "assistant", content: [callPart("c1", "clock", {})] },
      {
        role: "tool",
        content: [resultPart("c1", "clock", "error-text", MISSING_TOOL_RESULT_TEXT)],
      },
    ]);
  });
});

describe("buildModelPrompt reuses the messages of plain entries of a long prompt (issue #32)", () => {
  const entries: TranscriptEntry[] = Array.from({ length: REUSE_MESSAGES_FROM_ENTRIES }, (_, i) =>
    i % 2 === 0
      ? { role: "user", text: `question ${i}`, messageId: `m${i}` }
      : { role: "assistant", runId: `r${i}`, text: `answer ${i}` },
  );

  it("hands out the same frozen message object for an entry in every call", () => {
    const first = buildModelPrompt(agent, entries).messages;
    const second = buildModelPrompt(agent, [...entries]).messages;
    expect(second.slice(0, 2)).toEqual([
      { role: "user", content: "question 0" },
      { role: "assistant", content: "answer 1" },
    ]);
    expect(second).toHaveLength(REUSE_MESSAGES_FROM_ENTRIES);
    second.forEach((message, index) => expect(message).toBe(first[index]));
    expect(Object.isFrozen(second[0])).toBe(true);
  });

  it("builds a new message for an equal but distinct entry", () => {
    const [original] = buildModelPrompt(agent, entries).messages;
    const [copy] = buildModelPrompt(agent, [{ ...entries[0]! }, ...entries.slice(1)]).messages;
    expect(copy).toEqual(original);
    expect(copy).not.toBe(original);
  });

  it("builds fresh, unfrozen messages for a shorter prompt", () => {
    const short = entries.slice(0, REUSE_MESSAGES_FROM_ENTRIES - 1);
    const first = buildModelPrompt(agent, short).messages;
    const second = buildModelPrompt(agent, short).messages;
    expect(second).toEqual(first);
    expect(second[0]).not.toBe(first[0]);
    expect(Object.isFrozen(second[0])).toBe(false);
  });
});
