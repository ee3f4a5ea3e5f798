import { describe, expect, it } from "vitest";
import { formatValue } from "./format-value.js";

describe("formatValue", () => {
  it("keeps strings, writes other values as compact JSON on one line", () => {
    expect(formatValue("15:04")).toBe("15:04");
    expect(formatValue({ timeZone: "Asia/Tokyo" })).toBe('{"timeZone":"Asia/Tokyo"}');
    expect(formatValue("a\nb")).toBe("a⏎b");
    expect(formatValue(undefined)).toBe("undefined");
    const cycle: Record<string, unknown> = {};
    cycle["self"] = cycle;
    expect(formatValue(cycle)).toBe("[object Object]");
  });

  it("cuts text over the limit, ending with an ellipsis", () => {
    expect(formatValue("abcdef", 4)).toBe("abc…");
    expect(formatValue("abcd", 4)).toBe("abcd");
    expect(formatValue("x".repeat(300))).toHaveLength(200);
  });
});
