import { describe, expect, it } from "vitest";
import { cpuPerTurn } from "./cpu-per-turn.js";
import { devCpuLabel, devCpuTotalMs, devHostCpuLabel, sumHostCpu } from "./dev-cpu.js";

describe("troupe dev CPU", () => {
  it("sums every host of troupe dev into one host figure and keeps the other processes", () => {
    expect([1, 2, 3].map(devHostCpuLabel)).toEqual(["host", "host 2", "host 3"]);
    expect(
      sumHostCpu({ host: 10, "host 2": 5, "host 12": 1, "nats-server": 3, [devCpuLabel]: 2 }),
    ).toEqual({ host: 16, "nats-server": 3, [devCpuLabel]: 2 });
  });

  it("counts the troupe dev process itself on top of host and servers", () => {
    const cpu = cpuPerTurn(
      { [devCpuLabel]: 40, host: 200, "nats-server": 60, "redis-server": 20, node: 30 },
      20,
    );
    expect(cpu.totalMs).toBe(14);
    expect(devCpuTotalMs(cpu)).toBe(16);
    expect(
      devCpuTotalMs(cpuPerTurn({ host: 200, "nats-server": 60, "redis-server": 20 }, 20)),
    ).toBe(undefined);
  });
});
