import { describe, expect, it } from "vitest";
import { truncateUtf8, utf8ByteLength } from "./tool-result-content.js";

/** The plain definition: the longest whole-code-point beginning that fits. */
function longestFitting(text: string, maxBytes: number): string {
  let best = "";
  for (const char of text) {
    if (utf8ByteLength(best + char) > maxBytes) break;
    best += char;
  }
  return best;
}

describe("truncateUtf8 (issue #31: encodes only what can be shown)", () => {
  const texts = [
    "plain ascii text that goes on",
    "héllo wörld, ça va",
    "持久化的智能体运行时",
    "emoji 👍🏽 and 👨‍👩‍👧 families",
    "𠀀𠀁𠀂 outside the BMP",
    "a😀b😀c😀d😀e😀",
  ];

  it("gives the longest beginning that fits, never a broken character, for every cut", () => {
    for (const text of texts) {
      for (let maxBytes = 0; maxBytes <= utf8ByteLength(text) + 2; maxBytes++) {
        const cut = truncateUtf8(text, maxBytes);
        expect(cut).toBe(longestFitting(text, maxBytes));
        expect(cut).not.toContain("\uFFFD");
        expect(utf8ByteLength(cut)).toBeLessThanOrEqual(maxBytes);
      }
    }
  });

  it("an 8 MiB result is cut to its limit", () => {
    const big = "x".repeat(8 * 1024 * 1024);
    expect(truncateUtf8(big, 16_384)).toHaveLength(16_384);
    expect(truncateUtf8("short", 16_384)).toBe("short");
  });
});
