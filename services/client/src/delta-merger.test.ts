import { describe, expect, it } from "vitest";
import { DeltaMerger } from "./delta-merger.js";
import type { SessionEvent } from "./session-event.js";
import { testEvent } from "./test-events.js";

const RUN = "run/s1";

function event(sequence: number, type: "run.started" | "run.completed", pending = 0): SessionEvent {
  const payload =
    type === "run.started"
      ? { runId: "r1" }
      : { runId: "r1", text: "ab", usage: { inputTokens: 1, outputTokens: 2 } };
  return { ...testEvent(sequence, type, payload, { actor: RUN }), pending };
}

function delta(deltaSequence: number, text: string, runId = "r1"): SessionEvent {
  const base = testEvent(0, "run.delta", { runId, attempt: 1, kind: "text", text, index: deltaSequence }, {
    actor: RUN,
    id: `${RUN}:delta:${deltaSequence}`,
    transient: true,
  });
  return { ...base, deltaSequence };
}

describe("DeltaMerger (issue #11: deltas from their own stream)", () => {
  it("while the durable events replay, holds deltas and places them by stored time, each with the sequence before it", () => {
    const merger = new DeltaMerger();
    // Deltas arrive first (their consumer is quicker); the run events are still replaying.
    expect(merger.delta(delta(1, "a"), 150)).toEqual([]);
    expect(merger.delta(delta(2, "b"), 250)).toEqual([]);
    const first = merger.event(event(10, "run.started", 1), 100);
    expect(first.map((item) => item.event.type)).toEqual(["run.started"]);
    const caughtUp = merger.event(event(11, "run.started", 0), 200);
    // The delta stored at 150 goes before the event stored at 200; the one at 250 after it (caught up).
    expect(caughtUp.map((item) => [item.event.type, item.sequence, item.deltaSequence])).toEqual([
      ["run.delta", 10, 1],
      ["run.started", 11, undefined],
      ["run.delta", 11, 2],
    ]);
  });

  it("once caught up, passes deltas straight through", () => {
    const merger = new DeltaMerger();
    merger.event(event(3, "run.started", 0), 100);
    expect(merger.delta(delta(1, "a"), 150).map((item) => item.sequence)).toEqual([3]);
  });

  it("never yields a delta of a run after its end event: late and held ones are dropped", () => {
    const merger = new DeltaMerger();
    expect(merger.delta(delta(1, "a"), 300)).toEqual([]); // held: replay not caught up
    const out = merger.event(event(5, "run.completed", 0), 200);
    expect(out.map((item) => item.event.type)).toEqual(["run.completed"]);
    expect(merger.delta(delta(2, "b"), 400)).toEqual([]);
    // Another run's delta still passes.
    expect(merger.delta(delta(3, "c", "r2"), 500)).toHaveLength(1);
  });

  it("a consumer that reports nothing pending releases held deltas; a recreated one holds again", () => {
    const merger = new DeltaMerger();
    expect(merger.delta(delta(1, "a"), 100)).toEqual([]);
    expect(merger.caughtUpThrough(7, 6)).toEqual([]); // sequence 7 still on its way
    expect(merger.caughtUpThrough(7, 7).map((item) => item.deltaSequence)).toEqual([1]);
    merger.behind();
    expect(merger.delta(delta(2, "b"), 200)).toEqual([]);
    expect(merger.caughtUpThrough(0, 7).map((item) => item.deltaSequence)).toEqual([2]);
  });
});
