import { describe, expect, it } from "vitest";
import { cutText, splitLastGrapheme } from "./grapheme-text.js";

const THUMBS_MEDIUM = "👍🏽"; // U+1F44D U+1F3FD: 4 code units, one cluster
const FAMILY = "👨‍👩‍👧"; // a ZWJ sequence: 8 code units
const E_ACUTE = "e\u0301"; // e + combining acute accent
const HAN_EXT_B = "𠀋"; // U+2000B, a CJK ideograph outside the BMP (a surrogate pair)

describe("cutText (issue #31)", () => {
  it("never ends inside a surrogate pair, a combining sequence or a ZWJ sequence", () => {
    expect(cutText(`ab${THUMBS_MEDIUM}c`, 3)).toBe("ab");
    expect(cutText(`ab${THUMBS_MEDIUM}c`, 5)).toBe("ab");
    expect(cutText(`ab${THUMBS_MEDIUM}c`, 6)).toBe(`ab${THUMBS_MEDIUM}`);
    expect(cutText(`caf${E_ACUTE}s`, 4)).toBe("caf");
    expect(cutText(`x${FAMILY}`, 5)).toBe("x");
    expect(cutText(`漢字${HAN_EXT_B}`, 3)).toBe("漢字");
  });

  it("keeps text that fits, and cuts plain text at the length", () => {
    expect(cutText("hello", 5)).toBe("hello");
    expect(cutText("hello", 3)).toBe("hel");
    expect(cutText("hello", 0)).toBe("");
    const long = "a".repeat(1000);
    expect(cutText(long, 700)).toHaveLength(700);
  });

  it("cuts a cluster longer than its window between code points, never inside a pair", () => {
    expect(cutText(`a${"\u0301".repeat(200)}`, 150)).toHaveLength(150);
    const zwj = cutText(`${"x".repeat(10)}${"\u200d🙂".repeat(60)}`, 101);
    expect(zwj.length).toBeLessThanOrEqual(101);
    expect(/[\ud800-\udbff]$/.test(zwj)).toBe(false);
    const flags = cutText("🇫🇷".repeat(50), 101);
    expect(flags.length).toBeLessThanOrEqual(101);
    expect(/[\ud800-\udbff]$/.test(flags)).toBe(false);
  });
});

describe("splitLastGrapheme (issue #31)", () => {
  it("holds back the last cluster, whole", () => {
    expect(splitLastGrapheme("cafe")).toEqual(["caf", "e"]);
    expect(splitLastGrapheme(`ok ${THUMBS_MEDIUM}`)).toEqual(["ok ", THUMBS_MEDIUM]);
    expect(splitLastGrapheme(`hi ${FAMILY}`)).toEqual(["hi ", FAMILY]);
    expect(splitLastGrapheme("\ud83d")).toEqual(["", "\ud83d"]);
    expect(splitLastGrapheme("")).toEqual(["", ""]);
  });

  it("a text split anywhere and streamed through it publishes only whole clusters", () => {
    const text = `Zürich ${E_ACUTE} 東京 ${THUMBS_MEDIUM} ${FAMILY} ${HAN_EXT_B}!`;
    const published: string[] = [];
    for (let size = 1; size <= 5; size += 1) {
      published.length = 0;
      let held = "";
      for (let at = 0; at < text.length; at += size) {
        const [complete, last] = splitLastGrapheme(held + text.slice(at, at + size));
        if (complete.length > 0) published.push(complete);
        held = last;
      }
      published.push(held);
      expect(published.join("")).toBe(text);
      const clusters = [
        ...new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(text),
      ].map((segment) => segment.segment);
      // Every piece is a run of whole clusters of the text.
      let offset = 0;
      for (const piece of published) {
        const pieceClusters = [
          ...new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(piece),
        ].map((segment) => segment.segment);
        for (const cluster of pieceClusters) {
          expect(cluster).toBe(clusters[offset]);
          offset += 1;
        }
      }
    }
  });
});
