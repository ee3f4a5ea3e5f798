import { describe, expect, it } from "vitest";
import { deliveryLatencies } from "./delivery-latency.js";

describe("deliveryLatencies", () => {
  it("gives each follower's delay per published event and counts what it missed", () => {
    const published = new Map([
      ["e1", 100],
      ["e2", 200],
    ]);
    const result = deliveryLatencies(
      published,
      [
        new Map([
          ["e0", 50], // before the window: ignored
          ["e1", 103],
          ["e2", 201.5],
        ]),
        new Map([["e2", 210]]),
      ],
      new Map([["e1", "run.delta"]]),
    );
    expect(result.latenciesMs.sort((a, b) => a - b)).toEqual([1.5, 3, 10]);
    expect(result.missing).toBe(1);
    expect(result.followersMissing).toBe(1);
    expect(result.missingByType).toEqual({ "run.delta": 1 });
  });

  it("is empty without followers", () => {
    expect(deliveryLatencies(new Map([["e1", 1]]), [])).toEqual({
      latenciesMs: [],
      missing: 0,
      followersMissing: 0,
      missingByType: {},
    });
  });
});
