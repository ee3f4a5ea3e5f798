import { describe, expect, it } from "vitest";
import { formatDurationMs } from "./format-duration-ms.js";

describe("formatDurationMs", () => {
  it("uses the largest fitting units", () => {
    expect(formatDurationMs(0)).toBe("0 ms");
    expect(formatDurationMs(849.6)).toBe("850 ms");
    expect(formatDurationMs(1000)).toBe("1 s");
    expect(formatDurationMs(1540)).toBe("1.5 s");
    expect(formatDurationMs(125_000)).toBe("2 min 5 s");
    expect(formatDurationMs(3 * 3_600_000 + 10 * 60_000)).toBe("3 h 10 min");
    expect(formatDurationMs(2 * 86_400_000 + 4 * 3_600_000)).toBe("2 d 4 h");
  });

  it("keeps the sign of a negative duration", () => {
    expect(formatDurationMs(-2500)).toBe("-2.5 s");
  });
});
