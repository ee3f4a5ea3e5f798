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

  it("renders a compaction summary as its own section, after the entries it summarises (issue #19)", () => {
    const text = formatTranscript("s3", [
      { role: "user", text: "hi", messageId: "m1" },
      { role: "summary", text: "The user said hi.", through: 1, tokensBefore: 9, tokensAfter: 5 },
    ]);
    expect(text).toBe(
      [
        "# Session s3",
        "",
        "**user**",
        "",
        "hi",
        "",
        "**summary** (of entries 0–0)",
        "",
        "The user said hi.",
        "",
      ].join("\n"),
    );
  });

  it("says when there is nothing yet", () => {
    expect(formatTranscript("s2", [])).toBe("# Session s2\n\n(no messages yet)\n");
  });
});
