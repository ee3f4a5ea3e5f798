import { describe, expect, it } from "vitest";
import { eventLoopSlicer } from "./event-loop-slicer.js";

/** Keeps the thread busy for about `ms` without giving the event loop a turn. */
function spin(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // busy
  }
}

describe("eventLoopSlicer (issue #31)", () => {
  it("long work awaiting the slicer lets queued event-loop work run before it ends", async () => {
    let ran = false;
    setImmediate(() => (ran = true));
    const slice = eventLoopSlicer(1);
    let steps = 0;
    // Without a turn of the event loop `ran` never becomes true: the bound only ends a failing loop.
    while (!ran && steps < 50_000) {
      spin(0.1);
      await slice();
      steps += 1;
    }
    expect(ran).toBe(true);
    expect(steps).toBeLessThan(50_000);
  });

  it("within a slice it resolves without giving up the turn", async () => {
    let ran = false;
    setImmediate(() => (ran = true));
    const slice = eventLoopSlicer(60_000);
    for (let step = 0; step < 100; step++) await slice();
    expect(ran).toBe(false);
  });
});
