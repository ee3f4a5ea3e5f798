import { describe, expect, it } from "vitest";
import type { TracingModeResult } from "./measure-tracing-mode.js";
import { renderTracingReport, zeroSpanError } from "./tracing-report.js";

const latency = (p50Ms: number) => ({ count: 100, p50Ms, p99Ms: p50Ms * 2, maxMs: p50Ms * 3 });
const result = (mode: "off" | "on", spans: number, turnsPerSecond: number): TracingModeResult => ({
  mode,
  latency: latency(mode === "off" ? 20 : 22),
  turnsPerSecond,
  concurrentLatency: latency(50),
  spans,
  spanNames: spans === 0 ? [] : [["process run", spans]],
  turns: 200,
});
const settings = {
  text: "/tool lookup {}",
  hosts: 2,
  shardCount: 16,
  sessions: 10,
  warmupTurns: 10,
  sequentialTurns: 100,
  concurrentSessions: 24,
  concurrentWindowMs: 8_000,
  turnTimeoutMs: 30_000,
};

describe("the tracing benchmark report", () => {
  it("fails a tracing-on run that received no span, and passes one that did", () => {
    expect(zeroSpanError(result("on", 0, 100))).toMatch(/received 0 spans/);
    expect(zeroSpanError(result("on", 1, 100))).toBeUndefined();
  });

  it("shows off, on and the change, spans per turn and the floor", () => {
    const report = renderTracingReport({
      facts: undefined,
      loadAverageAtEnd1m: 1,
      settings,
      off: result("off", 0, 200),
      on: result("on", 1_800, 180),
      publishAck: latency(0.4),
      errors: [],
      durationMs: 90_000,
    });
    expect(report).toMatch(
      /\| turns\/s, 24 sessions in flight\s+\|\s+200 \|\s+180 \|\s+-10\.0 % \|/,
    );
    expect(report).toMatch(
      /\| turn p50 \(ms\), one in flight\s+\|\s+20\.0 \|\s+22\.0 \|\s+\+10\.0 % \|/,
    );
    expect(report).toMatch(/spans exported per turn\s+\|\s+0\.00 \|\s+9\.00 \|/);
    expect(report).toContain("publish → stream ack p50 0.40 ms");
    expect(report).toContain("`process run` 1800");
  });
});
