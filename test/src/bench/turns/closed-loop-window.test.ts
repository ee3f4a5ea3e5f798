import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { measureClosedLoop } from "./closed-loop-window.js";
import { epochNowMs } from "./turn-driver.js";

/** A turn of loop `index` taking about `durationMs`. */
const fakeTurn = (durationMs: number) => async (index: number) => {
  const sentAtMs = epochNowMs();
  await sleep(durationMs);
  const completedAtMs = epochNowMs();
  return { sessionId: `s-${index}`, sentAtMs, completedAtMs, durationMs: completedAtMs - sentAtMs };
};

describe("measureClosedLoop", () => {
  it("divides the window's CPU by rate × window, summing only the given labels", async () => {
    const readings = [
      { "restate-server": 1_000, endpoint: 500, node: 50 },
      { "restate-server": 1_300, endpoint: 600, node: 90 },
    ];
    let reads = 0;
    const window = await measureClosedLoop({
      inFlight: 4,
      warmupMs: 20,
      windowMs: 120,
      maxWindowMs: 5_000,
      turn: fakeTurn(5),
      readCpu: () => Promise.resolve(readings[reads++] ?? {}),
      cpuTotalLabels: ["restate-server", "endpoint"],
    });
    expect(reads).toBe(2);
    expect(window.windowMs).toBeGreaterThanOrEqual(120);
    expect(window.turnsInWindow).toBeCloseTo((window.turnsPerSecond * window.windowMs) / 1000, 9);
    // 300 + 100 ms of CPU in the window, the client's 40 ms apart.
    expect(window.cpu.totalMs).toBeCloseTo(400 / window.turnsInWindow, 9);
    expect(window.cpu.byLabelMs.node).toBeCloseTo(40 / window.turnsInWindow, 9);
    expect(window.latency.count).toBe(window.turns);
    expect(window.latency.p50Ms).toBeGreaterThanOrEqual(4);
  });

  it("calls the window hooks around the CPU readings, in order", async () => {
    const calls: string[] = [];
    await measureClosedLoop({
      inFlight: 2,
      warmupMs: 0,
      windowMs: 30,
      maxWindowMs: 5_000,
      turn: fakeTurn(2),
      readCpu: () => {
        calls.push("cpu");
        return Promise.resolve({ host: 0, "nats-server": 0, "redis-server": 0 });
      },
      atWindowStart: () => Promise.resolve(void calls.push("start")),
      atWindowEnd: () => Promise.resolve(void calls.push("end")),
    });
    expect(calls).toEqual(["start", "cpu", "cpu", "end"]);
  });

  it("rejects with the first failed turn's error and lets the other loops finish", async () => {
    let started = 0;
    await expect(
      measureClosedLoop({
        inFlight: 3,
        warmupMs: 1_000,
        windowMs: 1_000,
        maxWindowMs: 5_000,
        turn: async (index) => {
          started += 1;
          if (started === 5) throw new Error("turn 5 failed");
          return await fakeTurn(2)(index);
        },
        readCpu: () => Promise.resolve({}),
      }),
    ).rejects.toThrow("turn 5 failed");
  });
});
