import { describe, expect, it } from "vitest";
import { cpuPerTurn } from "./cpu-per-turn.js";
import { cpuBetween, parseSchedstatRunNs } from "./thread-cpu.js";

describe("cpuPerTurn", () => {
  it("divides each process's CPU by the turns; the total leaves out the benchmark client", () => {
    const perTurn = cpuPerTurn({ host: 300, "nats-server": 150, "redis-server": 30, node: 90 }, 30);
    expect(perTurn.byLabelMs).toEqual({
      host: 10,
      "nats-server": 5,
      "redis-server": 1,
      node: 3,
    });
    expect(perTurn.totalMs).toBe(16);
  });

  it("has no total when a server could not be read, and refuses zero turns", () => {
    expect(cpuPerTurn({ host: 10, "nats-server": 5 }, 1).totalMs).toBeUndefined();
    expect(() => cpuPerTurn({ host: 10 }, 0)).toThrow(RangeError);
  });
});

describe("thread CPU readings", () => {
  it("reads the run time in ns from a schedstat line and refuses other layouts", () => {
    expect(parseSchedstatRunNs("481870536 741179299 524\n")).toBe(481_870_536);
    expect(parseSchedstatRunNs("481870536 741179299")).toBeUndefined();
    expect(parseSchedstatRunNs("a b c")).toBeUndefined();
  });

  it("subtracts readings label by label, leaving out labels missing from the first", () => {
    expect(cpuBetween({ host: 100, node: 5 }, { host: 160, node: 9, "nats-server": 40 })).toEqual({
      host: 60,
      node: 4,
    });
  });
});
