import { describe, expect, it } from "vitest";
import { DeltaTracker } from "./delta-tracker.js";

const delta = (attempt: number, index: number | undefined, modelCallId = "run-1.m1") => ({
  runId: "run-1",
  modelCallId,
  attempt,
  kind: "text" as const,
  text: "x",
  ...(index === undefined ? {} : { index }),
});

describe("DeltaTracker", () => {
  it("prints each delta of an attempt once, however often it is replayed", () => {
    const tracker = new DeltaTracker();
    expect(
      [delta(1, 0), delta(1, 1), delta(1, 0), delta(1, 1)].map((d) => tracker.accept(d)),
    ).toEqual(["print", "print", "skip", "skip"]);
  });

  it("marks a higher attempt as a retry and skips the superseded attempt from then on", () => {
    const tracker = new DeltaTracker();
    expect(
      [delta(1, 0), delta(2, 0), delta(1, 1), delta(2, 1), delta(2, 0)].map((d) =>
        tracker.accept(d),
      ),
    ).toEqual(["print", "retry", "skip", "print", "skip"]);
  });

  it("keeps model calls apart and prints deltas without an index", () => {
    const tracker = new DeltaTracker();
    expect(tracker.accept(delta(1, 0, "run-1.m1"))).toBe("print");
    expect(tracker.accept(delta(1, 0, "run-1.m2"))).toBe("print");
    expect(tracker.accept(delta(1, undefined, "run-1.m2"))).toBe("print");
  });

  it("skips every delta of a run that ended", () => {
    const tracker = new DeltaTracker();
    tracker.accept(delta(1, 0));
    tracker.endRun("run-1");
    expect(tracker.accept(delta(1, 1))).toBe("skip");
    expect(tracker.accept(delta(3, 0, "run-1.m9"))).toBe("skip");
  });
});
