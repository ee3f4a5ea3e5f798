import { describe, expect, it } from "vitest";
import {
  judgeRateAgainstRestate,
  judgeSequentialAgainstRestate,
  restateGoals,
} from "./restate-goals.js";

describe("goals against Restate", () => {
  it("meets a sequential goal only at or under both the limit and Restate's p50", () => {
    expect(judgeSequentialAgainstRestate(6, 6, restateGoals.plain.p50Ms)).toBe("yes");
    expect(judgeSequentialAgainstRestate(5.5, 5.2, restateGoals.plain.p50Ms)).toBe(
      "no: p50 > Restate's 5.20 ms",
    );
    expect(judgeSequentialAgainstRestate(11, 6.1, restateGoals.plain.p50Ms)).toBe(
      "no: p50 > 6 ms, p50 > Restate's 6.10 ms",
    );
    expect(judgeSequentialAgainstRestate(10.5, 12, restateGoals.oneTool.p50Ms)).toBe(
      "no: p50 > 10 ms",
    );
    expect(judgeSequentialAgainstRestate(12.2, 10.1, restateGoals.oneTool.p50Ms)).toBe(
      "no: p50 > 10 ms, p50 > Restate's 10.1 ms",
    );
  });

  it("calls a sequential goal unknown without Restate, but still names a missed limit", () => {
    expect(judgeSequentialAgainstRestate(5, undefined, 6)).toBe("unknown: Restate not measured");
    expect(judgeSequentialAgainstRestate(7, undefined, 6)).toBe(
      "no: p50 > 6 ms (Restate not measured)",
    );
    expect(judgeSequentialAgainstRestate(undefined, 5, 6)).toBe("unknown: Troupe not measured");
  });

  it("meets the rate goal from 1.5× Restate's turns/s on", () => {
    expect(judgeRateAgainstRestate(450, 300, restateGoals.concurrent.minRatio)).toBe("yes (1.50×)");
    expect(judgeRateAgainstRestate(426, 340, 1.5)).toBe("no: 1.25× < 1.5×");
    expect(judgeRateAgainstRestate(426, undefined, 1.5)).toBe("unknown: Restate not measured");
    expect(judgeRateAgainstRestate(undefined, 300, 1.5)).toBe("unknown: Troupe not measured");
  });
});
