import { describe, expect, it } from "vitest";
import { cpuPerTurn } from "./cpu-per-turn.js";
import { devCpuLabel } from "./dev-cpu.js";
import type { DevTurnsResult } from "./measure-dev-turns.js";
import type { SequentialTurnsResult } from "./measure-sequential-turns.js";
import { mainTable } from "./turn-report.js";
import { devComparisonTable } from "./turn-report-dev.js";
import type { AgentTurnResults } from "./turn-results.js";

const latency = (p50Ms: number, p99Ms: number) => ({ count: 300, p50Ms, p99Ms, maxMs: p99Ms });
const sequential = (p50Ms: number, p99Ms: number, hops: number): SequentialTurnsResult => ({
  latency: latency(p50Ms, p99Ms),
  inboxMessagesPerTurn: hops,
  // 300 turns: host 1,500 ms → 5 ms per turn, servers 1 + 0.5, troupe dev 0.8 when present.
  cpu: cpuPerTurn({ host: 1_500, "nats-server": 300, "redis-server": 150, node: 90 }, 300),
  breakdown: { turns: 0, matchedTurns: 0, rows: [] },
});
const devCpu = cpuPerTurn(
  { [devCpuLabel]: 240, host: 1_800, "nats-server": 360, "redis-server": 150, node: 90 },
  300,
);
const troupeDev: DevTurnsResult = {
  hosts: 1,
  cliMode: "dist",
  startupMs: 4_900,
  sequential: {
    plain: { ...sequential(5.5, 14, 4), cpu: devCpu },
    read: { ...sequential(13, 30, 8), cpu: devCpu },
  },
  newSession: {
    plain: { latency: latency(13.6, 29.4), cpu: devCpu },
    read: { latency: latency(20.7, 38), cpu: devCpu },
  },
  linesDuringTurns: 0,
};
const results = (dev: Partial<AgentTurnResults>): AgentTurnResults => ({
  facts: undefined,
  loadAverageAtEnd1m: 1,
  settings: {
    shardCount: 64,
    sequentialSessions: 20,
    sequentialWarmupTurns: 40,
    sequentialSamples: 300,
    longSessionMessages: 500,
    longSessionWindow: 30,
    concurrentWarmupMs: 1_500,
    concurrentWindowMs: 4_000,
    manySessionsPassivateAfterMs: 3_000,
    manySessionsMaxActiveActors: 10_000,
    texts: { plain: "hello", read: "/tool lookup", write: "/tool record" },
  },
  rawFloor: undefined,
  sequential: { plain: sequential(5, 12, 4), read: sequential(10, 25, 8), write: undefined },
  longSession: undefined,
  concurrent: [],
  manySessions: undefined,
  errors: [],
  durationMs: 1_000,
  ...dev,
});
const cells = (table: string, rowStart: string) =>
  table
    .split("\n")
    .find((line) => line.startsWith(`| ${rowStart}`))
    ?.split("|")
    .slice(1, -1)
    .map((cell) => cell.trim());

describe("row (g): troupe dev beside the bare host", () => {
  it("puts dev ÷ bare p50 and p99, both CPU totals and dev's CPU by process beside each other", () => {
    const table = devComparisonTable(
      results({
        troupeDev,
        newSession: { plain: { latency: latency(11, 22), cpu: devCpu }, read: undefined },
      }),
    );
    expect(cells(table ?? "", "plain turn, sequential")).toEqual([
      "plain turn, sequential, warm sessions",
      "5.00",
      "5.50",
      "1.10",
      "12.0",
      "14.0",
      "1.17",
      "6.50",
      // host 6 + nats 1.2 + redis 0.5 + troupe dev 0.8
      "8.50",
      "0.80 / 6.00 / 1.20 / 0.50",
      "through `troupe dev` within 1.2× of the bare host (sequential p50)",
      "yes (1.10×)",
    ]);
    expect(cells(table ?? "", "one read tool turn, sequential")?.slice(1, 4)).toEqual([
      "10.0",
      "13.0",
      "1.30",
    ]);
    expect(cells(table ?? "", "one read tool turn, sequential")?.at(-1)).toBe("no: 1.30× > 1.2×");
    expect(cells(table ?? "", "plain turn, a new session each")?.slice(1, 4)).toEqual([
      "11.0",
      "13.6",
      "1.24",
    ]);
    // The bare host's new-session read turns failed: an error cell, no ratio.
    expect(cells(table ?? "", "one read tool turn, a new session each")?.slice(1, 4)).toEqual([
      "error",
      "20.7",
      "—",
    ]);
  });

  it("adds the (g) rows to the main table with dev's whole CPU, and an error row when the phase failed", () => {
    const main = mainTable(results({ troupeDev }));
    const plain = cells(main, "(g) plain turn");
    expect(plain?.[0]).toBe("(g) plain turn through `troupe dev`, sequential (ms)");
    expect(plain?.slice(1, 4)).toEqual(["5.50", "14.0", "4.00"]);
    expect(plain?.[7]).toBe("8.50");
    expect(plain?.at(-1)).toBe("yes (1.10×)");
    expect(cells(main, "(g) one read tool turn")?.at(-1)).toBe("no: 1.30× > 1.2×");

    const failed = mainTable(results({ troupeDev: undefined }));
    expect(cells(failed, "(g) plain turn")?.slice(1, 2)).toEqual(["error"]);
    expect(devComparisonTable(results({ troupeDev: undefined }))).toContain("| error ");
  });

  it("leaves row (g) out when it did not run", () => {
    expect(devComparisonTable(results({}))).toBeUndefined();
    expect(mainTable(results({}))).not.toContain("(g)");
  });
});
