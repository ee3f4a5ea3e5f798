import { describe, expect, it } from "vitest";
import { MEDIA_PART_TOKENS, estimatePromptTokens } from "./prompt-tokens.js";
import { estimateTextTokens } from "./text-tokens.js";

const tokens = estimateTextTokens;

describe("estimatePromptTokens (issue #31)", () => {
  it("counts text, tool calls and results, and a media part as MEDIA_PART_TOKENS whatever its size", () => {
    const image = new Uint8Array(20 * 1024 * 1024);
    const estimated = estimatePromptTokens({
      instructions: "Be brief.",
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "What is this?" },
            { type: "file", data: image, mediaType: "image/png" },
          ],
        },
        {
          role: "assistant",
          content: [
            { type: "text", text: "A picture." },
            { type: "tool-call", toolCallId: "c1", toolName: "zoom", input: { x: 1 } },
          ],
        },
        {
          role: "tool",
          content: [
            {
              type: "tool-result",
              toolCallId: "c1",
              toolName: "zoom",
              output: {
                type: "content",
                value: [
                  { type: "text", text: "zoomed" },
                  {
                    type: "file",
                    data: { type: "data", data: image },
                    mediaType: "image/png",
                  },
                ],
              },
            },
          ],
        },
        { role: "user", content: "thanks" },
      ],
    });
    expect(estimated).toBe(
      tokens("Be brief.") +
        tokens("What is this?") +
        MEDIA_PART_TOKENS +
        tokens("A picture.") +
        tokens("zoom") +
        tokens(JSON.stringify({ x: 1 })) +
        tokens("zoom") +
        tokens("zoomed") +
        MEDIA_PART_TOKENS +
        tokens("thanks"),
    );
  });

  it("counts a text or JSON tool output by its text", () => {
    const result = (output: unknown) =>
      estimatePromptTokens({
        instructions: "",
        messages: [
          {
            role: "tool",
            content: [{ type: "tool-result", toolCallId: "c", toolName: "t", output } as never],
          },
        ],
      });
    expect(result({ type: "text", value: "持久化的智能体" })).toBe(1 + 6);
    expect(result({ type: "json", value: { a: [1, 2] } })).toBe(
      1 + tokens(JSON.stringify({ type: "json", value: { a: [1, 2] } })),
    );
  });
});

describe("estimatePromptTokens of a message seen before (issue #32)", () => {
  it("gives the same count for the same shared message, and counts a distinct one afresh", () => {
    const message = Object.freeze({ role: "user" as const, content: "a question of some length" });
    const once = estimatePromptTokens({ instructions: "", messages: [message] });
    expect(once).toBe(tokens(message.content));
    expect(estimatePromptTokens({ instructions: "x", messages: [message, message] })).toBe(
      tokens("x") + 2 * once,
    );
    const longer = Object.freeze({
      role: "user" as const,
      content: `${message.content} and more words here`,
    });
    expect(estimatePromptTokens({ instructions: "", messages: [longer] })).toBe(
      tokens(longer.content),
    );
  });
});
