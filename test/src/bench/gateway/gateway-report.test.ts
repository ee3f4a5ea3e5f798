import { describe, expect, it } from "vitest";
import type { LatencySummary } from "../latency-summary.js";
import { fanOutTable, overheadTable, type GatewayBenchResults } from "./gateway-report.js";

const summary = (p50Ms: number, p99Ms: number, count = 40): LatencySummary => ({
  count,
  p50Ms,
  p99Ms,
  maxMs: p99Ms + 1,
});

const base: GatewayBenchResults = {
  facts: undefined,
  loadAverageAtEnd1m: 0,
  settings: {
    text: "hello",
    sessionsPerPath: 5,
    warmupRounds: 5,
    rounds: 40,
    floorSamples: 200,
    fanOutTurns: 5,
    quick: true,
  },
  floors: undefined,
  turns: undefined,
  fanOut: [],
  phases: ["floors", "turns", "fan-out"],
  errors: [],
  durationMs: 1_000,
};

describe("gateway report", () => {
  it("puts each gateway path beside the client's and gives the overhead per percentile", () => {
    const table = overheadTable({
      ...base,
      turns: {
        errors: [],
        paths: {
          "client-events": { first: summary(2, 6), turn: summary(10, 20), firstKinds: {} },
          "client-send-and-wait": { turn: summary(12, 30), firstKinds: {} },
          "gateway-rest": {
            first: summary(3, 9),
            turn: summary(11.5, 24),
            post: summary(1.5, 4),
            firstKinds: { "message.accepted": 40 },
          },
          "gateway-chat": {
            first: summary(4, 8),
            turn: summary(13, 33),
            firstKinds: { start: 40 },
          },
        },
      },
    });
    const rows = table.split("\n").map((line) => line.split("|").map((cell) => cell.trim()));
    const row = (prefix: string) => rows.find((cells) => cells[1]?.startsWith(prefix));
    expect(row("publish → first event")?.slice(2, 9)).toEqual([
      "2.00",
      "6.00",
      "3.00",
      "9.00",
      "1.00",
      "3.00",
      "40",
    ]);
    expect(row("publish → first byte")?.[1]).toContain("(first chunk `start`)");
    expect(row("publish → first byte")?.slice(4, 8)).toEqual(["4.00", "8.00", "2.00", "2.00"]);
    expect(row("full turn, one call")?.slice(2, 8)).toEqual([
      "12.0",
      "30.0",
      "13.0",
      "33.0",
      "1.00",
      "3.00",
    ]);
    expect(row("`POST /v1/sessions/:id/messages` → its 202")?.slice(2, 6)).toEqual([
      "—",
      "—",
      "1.50",
      "4.00",
    ]);
  });

  it("says error for a failed phase", () => {
    expect(overheadTable(base)).toMatch(/\| +error \|/);
    const fanOut = fanOutTable([{ via: "gateway", followers: 500, result: undefined }]);
    expect(fanOut.split("\n")[2]).toMatch(/^\| 500 × SSE \(gateway\)\s+\|\s+error \|/);
  });
});
