import { describe, expect, it } from "vitest";
import { ManualClock } from "./manual-clock.js";
import { systemClock } from "./system-clock.js";

describe("ManualClock", () => {
  it("stands still until advanced or set, in ms", () => {
    const clock = new ManualClock(1_000);
    expect(clock.now()).toBe(1_000);
    expect(clock.now()).toBe(1_000);
    expect(clock.advance(250)).toBe(1_250);
    expect(clock.now()).toBe(1_250);
    clock.set(500);
    expect(clock.now()).toBe(500);
    expect(new ManualClock().now()).toBe(0);
  });

  it("refuses to go back by advance and refuses times that are not finite", () => {
    const clock = new ManualClock(1_000);
    expect(() => clock.advance(-1)).toThrow(RangeError);
    expect(() => clock.advance(Number.NaN)).toThrow(RangeError);
    expect(() => clock.set(Number.POSITIVE_INFINITY)).toThrow(RangeError);
    expect(() => new ManualClock(Number.NaN)).toThrow(RangeError);
    expect(clock.now()).toBe(1_000);
  });
});

describe("systemClock", () => {
  it("reads the real time in Unix ms", () => {
    const before = new Date().getTime();
    const now = systemClock.now();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(new Date().getTime());
  });
});
