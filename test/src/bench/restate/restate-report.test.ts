import { describe, expect, it } from "vitest";
import type { ClosedLoopWindow } from "../turns/closed-loop-window.js";
import { cpuPerTurn } from "../turns/cpu-per-turn.js";
import type { ConcurrentTurnsResult } from "../turns/measure-concurrent-turns.js";
import type { SequentialTurnsResult } from "../turns/measure-sequential-turns.js";
import type { AgentTurnResults } from "../turns/turn-results.js";
import { restateCpuLabels } from "./restate-deployment.js";
import { restateComparisonTable, restateReportNotes } from "./restate-report.js";
import type { RestateMeasured } from "./restate-results.js";

const latency = (p50Ms: number, p99Ms: number) => ({ count: 300, p50Ms, p99Ms, maxMs: p99Ms });
// 300 turns: host 3,000 + nats 1,200 + redis 300 ms → 15 ms per turn.
const troupeCpu = cpuPerTurn({ host: 3_000, "nats-server": 1_200, "redis-server": 300 }, 300);
// 300 turns: restate-server 900 + endpoint 450 ms → 4.5 ms per turn; the client's 60 ms apart.
const restateCpu = cpuPerTurn(
  { "restate-server": 900, endpoint: 450, node: 60 },
  300,
  restateCpuLabels,
);
const sequential = (p50Ms: number, p99Ms: number): SequentialTurnsResult => ({
  latency: latency(p50Ms, p99Ms),
  inboxMessagesPerTurn: 4,
  cpu: troupeCpu,
  breakdown: { turns: 0, matchedTurns: 0, rows: [] },
});
const troupeRate = (inFlight: number, turnsPerSecond: number): ConcurrentTurnsResult => ({
  inFlight,
  turnsPerSecond,
  turns: 1_000,
  windowMs: 4_000,
  latency: latency(300, 400),
  cpu: troupeCpu,
  inboxMessagesPerTurn: 4,
});
const restateRate = (turnsPerSecond: number): ClosedLoopWindow => ({
  turnsPerSecond,
  turns: 1_200,
  windowMs: 4_000,
  turnsInWindow: (turnsPerSecond * 4_000) / 1000,
  latency: latency(250, 380),
  cpu: restateCpu,
});
const measured: RestateMeasured = {
  status: "measured",
  serverVersion: "restate-server 1.7.12",
  sdkVersion: "1.17.2",
  sequential: {
    plain: { latency: latency(6, 12), cpu: restateCpu },
    oneTool: { latency: latency(10, 40), cpu: restateCpu },
  },
  concurrent: [
    { kind: "plain", inFlight: 100, result: restateRate(320) },
    { kind: "plain", inFlight: 200, result: restateRate(300) },
    { kind: "oneTool", inFlight: 200, result: undefined },
  ],
};
const results = (extra: Partial<AgentTurnResults>): AgentTurnResults => ({
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
  sequential: { plain: sequential(9, 24), read: sequential(15, 30), write: undefined },
  longSession: undefined,
  concurrent: [
    { kind: "plain", inFlight: 100, result: troupeRate(100, 340) },
    { kind: "plain", inFlight: 200, result: troupeRate(200, 480) },
    { kind: "read", inFlight: 100, result: troupeRate(100, 210) },
    { kind: "read", inFlight: 200, result: troupeRate(200, 199) },
  ],
  manySessions: undefined,
  errors: [],
  durationMs: 1_000,
  ...extra,
});
const cells = (table: string, rowStart: string) =>
  table
    .split("\n")
    .find((line) => line.startsWith(`| ${rowStart}`))
    ?.split("|")
    .slice(1, -1)
    .map((cell) => cell.trim());

describe("Troupe vs Restate table", () => {
  it("puts p50 / p99, Troupe ÷ Restate and both CPU totals side by side, judging the sequential goals", () => {
    const table = restateComparisonTable(results({ restate: measured })) ?? "";
    expect(cells(table, "plain turn, sequential")).toEqual([
      "plain turn, sequential: p50 / p99 (ms)",
      "9.00 / 24.0",
      "6.00 / 12.0",
      "1.50 / 2.00",
      "15.0",
      "4.50",
      "sequential plain turn p50 ≤ 6 ms and ≤ Restate's",
      "no: p50 > 6 ms, p50 > Restate's 6.00 ms",
    ]);
    // Our one-tool turn is the read tool turn: 15 ms against Restate's 10 ms.
    expect(cells(table, "one-tool turn, sequential")?.slice(1, 4)).toEqual([
      "15.0 / 30.0",
      "10.0 / 40.0",
      "1.50 / 0.75",
    ]);
  });

  it("judges turns/s at 200 in flight as Troupe ÷ Restate ≥ 1.5, and says error where a Restate run failed", () => {
    const table = restateComparisonTable(results({ restate: measured })) ?? "";
    expect(cells(table, "plain turns, 100 in flight")?.slice(1)).toEqual([
      "340",
      "320",
      "1.06",
      "15.0",
      "4.50",
      "—",
      "—",
    ]);
    expect(cells(table, "plain turns, 200 in flight")?.slice(1)).toEqual([
      "480",
      "300",
      "1.60",
      "15.0",
      "4.50",
      "one host, 200 sessions in flight: ≥ 1.5× Restate's turns/s",
      "yes (1.60×)",
    ]);
    expect(cells(table, "one-tool turns, 200 in flight")?.slice(1)).toEqual([
      "199",
      "error",
      "—",
      "15.0",
      "error",
      "one host, 200 sessions in flight: ≥ 1.5× Restate's turns/s",
      "unknown: Restate not measured",
    ]);
  });

  it("shows the Troupe figures with Restate skipped, and names the reason in the notes", () => {
    const skipped = results({ restate: { status: "skipped", reason: "no restate-server binary" } });
    const table = restateComparisonTable(skipped) ?? "";
    expect(cells(table, "plain turn, sequential")?.slice(1, 3)).toEqual(["9.00 / 24.0", "skipped"]);
    expect(cells(table, "plain turns, 200 in flight")?.slice(1, 3)).toEqual(["480", "skipped"]);
    expect(restateReportNotes(skipped)).toEqual(["Restate: skipped — no restate-server binary."]);
  });

  it("has no table and no notes when the Restate phase did not run", () => {
    expect(restateComparisonTable(results({}))).toBeUndefined();
    expect(restateReportNotes(results({}))).toEqual([]);
  });

  it("names both versions and Restate's window latencies in the notes", () => {
    const notes = restateReportNotes(results({ restate: measured })).join("\n");
    expect(notes).toContain("restate-server 1.7.12");
    expect(notes).toContain("`@restatedev/restate-sdk` 1.17.2");
    expect(notes).toContain("plain 200 in flight: 1,200 turns in 4,000 ms, p50 250 / p99 380 ms");
  });
});
