import { describe, expect, it } from "vitest";
import { refusalBackoffMs } from "./actor-cell.js";

describe("refusalBackoffMs", () => {
  it("waits 1 s after the first refusal, doubling up to 30 s (issue #14)", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 1000].map(refusalBackoffMs)).toEqual([
      1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000,
    ]);
  });
});
