import { InvalidArgumentError } from "commander";
import { describe, expect, it } from "vitest";
import { parseSince } from "./parse-since.js";

const NOW_MS = Date.UTC(2026, 11, 1, 3, 0, 0);

describe("parseSince (troupe deadletters --since, issue #13)", () => {
  it("reads a duration back from now", () => {
    expect(parseSince("500ms", NOW_MS)).toBe(NOW_MS - 500);
    expect(parseSince("90s", NOW_MS)).toBe(NOW_MS - 90_000);
    expect(parseSince("10m", NOW_MS)).toBe(NOW_MS - 600_000);
    expect(parseSince("1.5h", NOW_MS)).toBe(NOW_MS - 5_400_000);
    expect(parseSince("2d", NOW_MS)).toBe(NOW_MS - 172_800_000);
  });

  it("reads an ISO time", () => {
    expect(parseSince("2026-11-30T22:00:00Z", NOW_MS)).toBe(Date.UTC(2026, 10, 30, 22));
  });

  it("refuses a bare number, an unknown unit and words", () => {
    for (const value of ["10", "10y", "yesterday", ""]) {
      expect(() => parseSince(value, NOW_MS)).toThrow(InvalidArgumentError);
    }
    expect(() => parseSince("10y", NOW_MS)).toThrow(/expected a duration .* got "10y"/);
  });
});
