import { InvalidArgumentError } from "commander";
import { describe, expect, it } from "vitest";
import { nonNegativeInteger, positiveInteger } from "./parse-number.js";

describe("number arguments", () => {
  it("accept whole numbers in range and refuse the rest with commander's error", () => {
    expect(positiveInteger("3")).toBe(3);
    expect(nonNegativeInteger("0")).toBe(0);
    for (const bad of ["0", "-1", "1.5", "two", ""]) {
      expect(() => positiveInteger(bad)).toThrow(InvalidArgumentError);
    }
    expect(() => nonNegativeInteger("-1")).toThrow(/expected a whole number ≥ 0, got "-1"/);
  });
});
