import { describe, expect, it } from "vitest";
import { closedLoopRate } from "./closed-loop-rate.js";

describe("closedLoopRate", () => {
  it("sums each session's own rate, counting only completions inside the window", () => {
    const completions = new Map([
      // 4 completions 100 ms apart inside [1000, 2000]: 3 cycles in 300 ms = 10/s.
      ["a", [900, 1000, 1100, 1200, 1300, 2100]],
      // 2 completions 500 ms apart: 2/s.
      ["b", [1500, 2000]],
    ]);
    const { turnsPerSecond, sessionsWithoutCycle } = closedLoopRate(completions, 1000, 2000);
    expect(turnsPerSecond).toBeCloseTo(12, 9);
    expect(sessionsWithoutCycle).toBe(0);
  });

  it("is not thrown off by sessions completing in waves (a plain count in the window is)", () => {
    // 100 sessions in step, a wave every 1 000 ms at 500, 1500, 2500, …: 100 turns/s.
    const completions = new Map(
      Array.from({ length: 100 }, (_, index) => [`s${index}`, [500, 1500, 2500, 3500]] as const),
    );
    // A 2 200 ms window [1000, 3200] holds two waves (200 turns, i.e. 91/s by count).
    expect(closedLoopRate(completions, 1000, 3200).turnsPerSecond).toBeCloseTo(100, 9);
  });

  it("leaves out sessions with fewer than two completions in the window and says how many", () => {
    const completions = new Map([
      ["a", [1000, 1250]],
      ["b", [1100]],
      ["c", []],
    ]);
    expect(closedLoopRate(completions, 0, 5000)).toEqual({
      turnsPerSecond: 4,
      sessionsWithoutCycle: 2,
    });
  });
});
