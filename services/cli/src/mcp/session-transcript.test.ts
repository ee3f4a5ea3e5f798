import { describe, expect, it } from "vitest";
import { formatTranscript } from "./session-transcript.js";

describe("formatTranscript", () => {
  it("renders user, assistant (with tool calls) and tool entries in order", () => {
    const text = formatTranscript("s1", [
      { role: "user", text: "time in Tokyo?", messageId: "cm:c1" },
      {
        role: "assistant",
        text: "",
        runId: "r1",
        toolCalls: [{ toolCallId: "t1", toolName: "clock", input: '{"timeZone":"Asia/Tokyo"}' }],
      },
      {
        role: "tool",
        runId: "r1",
        toolCallId: "t1",
        toolName: "clock",
        status: "succeeded",
        content: "10:00",
      },
      { role: "assistant", text: "It is 10:00.", runId: "r1" },
    ]);
    expect(text).toBe(
      [
        "# Session s1",
        "",
        "**user**",
        "",
        "time in Tokyo?",
        "",
        "**assistant** (run r1)",
        "",
        '- calls `clock` {"timeZone":"Asia/Tokyo"} (t1)',
        "",
        "**tool** `clock` (t1): succeeded",
        "",
        "10:00",
        "",
        "**assistant** (run r1)",
        "",
        "It is 10:00.",
        "",
      ].join("\n"),
    );
  });

  it("says when there is nothing yet", () => {
    expect(formatTranscript("s2", [])).toBe("# Session s2\n\n(no messages yet)\n");
  });
});
