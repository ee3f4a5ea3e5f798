import { describe, expect, it } from "vitest";
import { judgeAtMost, judgeDevTurn, judgeLatency, ratioOf, turnGoals } from "./turn-goals.js";

const latency = (p50Ms: number, p99Ms: number) => ({ count: 300, p50Ms, p99Ms, maxMs: p99Ms });

describe("turn goals", () => {
  it("judges a latency against both limits and names each miss", () => {
    expect(judgeLatency(latency(5, 20), turnGoals.plain)).toBe("yes");
    expect(judgeLatency(latency(5.1, 20), turnGoals.plain)).toBe("no: p50 > 5 ms");
    expect(judgeLatency(latency(9, 31), turnGoals.oneTool)).toBe("no: p50 > 8 ms, p99 > 30 ms");
  });

  it("judges at-most goals, calling a missing value unknown", () => {
    expect(judgeAtMost({ time: 1.15, CPU: 0.9 }, 1.15, "×")).toBe("yes");
    expect(judgeAtMost({ time: 1.2, CPU: undefined }, 1.15, "×")).toBe(
      "no: time > 1.15×, CPU unknown",
    );
  });

  it("judges troupe dev against the bare host's p50, at most 1.2×", () => {
    expect(judgeDevTurn(6, 5)).toBe("yes (1.20×)");
    expect(judgeDevTurn(6.05, 5)).toBe("no: 1.21× > 1.2×");
    expect(judgeDevTurn(26, 4.59)).toBe("no: 5.66× > 1.2×");
    expect(judgeDevTurn(6, undefined)).toBe("unknown: bare host not measured");
  });

  it("gives no ratio without a positive denominator", () => {
    expect(ratioOf(3, 2)).toBe(1.5);
    expect(ratioOf(3, 0)).toBeUndefined();
    expect(ratioOf(undefined, 2)).toBeUndefined();
  });
});
