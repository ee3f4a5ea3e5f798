import { describe, expect, it } from "vitest";
import { MEDIA_PART_TOKENS, promptCharacters } from "./prompt-characters.js";

describe("promptCharacters (issue #31)", () => {
  it("counts text, tool calls and results, and a media part as MEDIA_PART_TOKENS × 4 whatever its size", () => {
    const image = new Uint8Array(20 * 1024 * 1024);
    const characters = promptCharacters({
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
    const media = MEDIA_PART_TOKENS * 4;
    expect(characters).toBe(
      "Be brief.".length +
        "What is this?".length +
        media +
        "A picture.".length +
        "zoom".length +
        JSON.stringify({ x: 1 }).length +
        "zoom".length +
        "zoomed".length +
        media +
        "thanks".length,
    );
  });

  it("counts a text or JSON tool output by its text", () => {
    const result = (output: unknown) =>
      promptCharacters({
        instructions: "",
        messages: [
          {
            role: "tool",
            content: [{ type: "tool-result", toolCallId: "c", toolName: "t", output } as never],
          },
        ],
      });
    expect(result({ type: "text", value: "abc" })).toBe(1 + 3);
    expect(result({ type: "json", value: { a: [1, 2] } })).toBe(
      1 + JSON.stringify({ type: "json", value: { a: [1, 2] } }).length,
    );
  });
});
