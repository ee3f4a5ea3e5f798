import { describe, expect, it } from "vitest";
import { formatReadyLine, parseReadyLine } from "./ready-line.js";

describe("the host ready line", () => {
  it("reads back what it wrote, and nothing else", () => {
    const line = formatReadyLine({ hostId: "host-1", pid: 42, agents: ["demo"] });
    expect(line).toBe('{"ready":true,"hostId":"host-1","pid":42,"agents":["demo"]}\n');
    expect(parseReadyLine(line.trim())).toEqual({ hostId: "host-1", pid: 42, agents: ["demo"] });
    expect(parseReadyLine('{"ready":true,"hostId":"h"}')).toEqual({ hostId: "h", agents: [] });
    expect(parseReadyLine('{"level":30,"msg":"actor host started"}')).toBeUndefined();
    expect(parseReadyLine("troupe host h (pid 1) serves demo")).toBeUndefined();
    expect(parseReadyLine("{not json")).toBeUndefined();
  });

  it("carries the health endpoint's URL when the host serves one (issue #17)", () => {
    const line = formatReadyLine({ hostId: "h", agents: [], healthUrl: "http://127.0.0.1:9464" });
    expect(parseReadyLine(line.trim())).toEqual({
      hostId: "h",
      agents: [],
      healthUrl: "http://127.0.0.1:9464",
    });
  });

  it("carries the metrics URL when the host serves /metrics (issue #18)", () => {
    const ready = {
      hostId: "h",
      agents: [],
      healthUrl: "http://127.0.0.1:9464",
      metricsUrl: "http://127.0.0.1:9464/metrics",
    };
    expect(parseReadyLine(formatReadyLine(ready).trim())).toEqual(ready);
  });
});
