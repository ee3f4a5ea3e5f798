import { describe, expect, it } from "vitest";
import { transcriptEntrySchema } from "./transcript-entry.js";

describe("transcriptEntrySchema", () => {
  it("accepts a user entry and an assistant entry", () => {
    const user = { role: "user", text: "hello", messageId: "session/s1:in:1" };
    const assistant = { role: "assistant", text: "Hi!", runId: "r1" };
    expect(transcriptEntrySchema.parse(user)).toEqual(user);
    expect(transcriptEntrySchema.parse(assistant)).toEqual(assistant);
  });

  it("accepts an assistant entry with tool calls and the tool entries that answer them", () => {
    const assistant = {
      role: "assistant",
      text: "",
      runId: "r1",
      toolCalls: [{ toolCallId: "call_1", toolName: "get_weather", input: '{"city":"Lisbon"}' }],
    };
    const tool = {
      role: "tool",
      runId: "r1",
      toolCallId: "call_1",
      toolName: "get_weather",
      status: "succeeded",
      content: '{"celsius":19}',
    };
    expect(transcriptEntrySchema.parse(assistant)).toEqual(assistant);
    expect(transcriptEntrySchema.parse(tool)).toEqual(tool);
    for (const status of [
      "failed",
      "invalid_arguments",
      "outcome_unknown",
      "skipped",
      "cancelled",
    ]) {
      expect(transcriptEntrySchema.safeParse({ ...tool, status }).success).toBe(true);
    }
  });

  it("refuses an entry whose role it does not know or whose fields are missing", () => {
    expect(transcriptEntrySchema.safeParse({ role: "system", text: "x" }).success).toBe(false);
    expect(transcriptEntrySchema.safeParse({ role: "assistant", text: "x" }).success).toBe(false);
    expect(transcriptEntrySchema.safeParse({ role: "user", text: "x" }).success).toBe(false);
    expect(
      transcriptEntrySchema.safeParse({
        role: "tool",
        runId: "r1",
        toolCallId: "call_1",
        toolName: "get_weather",
        status: "denied",
        content: "",
      }).success,
    ).toBe(false);
    expect(
      transcriptEntrySchema.safeParse({
        role: "assistant",
        text: "",
        runId: "r1",
        toolCalls: [{ toolCallId: "call_1", toolName: "get_weather", input: { city: "Lisbon" } }],
      }).success,
    ).toBe(false);
  });
});
