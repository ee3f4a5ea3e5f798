import { InvalidArgumentError } from "commander";
import { describe, expect, it } from "vitest";
import { nonNegativeInteger, portNumber, positiveInteger } from "./parse-number.js";

describe("number arguments", () => {
  it("accept whole numbers in range and refuse the rest with commander's error", () => {
    expect(positiveInteger("3")).toBe(3);
    expect(nonNegativeInteger("0")).toBe(0);
    for (const bad of ["0", "-1", "1.5", "two", ""]) {
      expect(() => positiveInteger(bad)).toThrow(InvalidArgumentError);
    }
    expect(() => nonNegativeInteger("-1")).toThrow(/expected a whole number ≥ 0, got "-1"/);
  });

  it("take a port from 0 to 65535 (a health port of 70000 was a raw Node error)", () => {
    expect(portNumber("0")).toBe(0);
    expect(portNumber("65535")).toBe(65_535);
    for (const bad of ["65536", "70000", "-1", "8.5", "abc", ""]) {
      expect(() => portNumber(bad)).toThrow(InvalidArgumentError);
    }
    expect(() => portNumber("70000")).toThrow(/expected a port from 0 to 65535, got "70000"/);
  });
});
