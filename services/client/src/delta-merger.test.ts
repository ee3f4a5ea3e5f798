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

function delta(deltaSequence: number, pending = 0, runId = "r1"): SessionEvent {
  const payload = { runId, attempt: 1, kind: "text", text: `t${deltaSequence}`, index: 0 };
  const base = testEvent(0, "run.delta", payload, {
    actor: RUN,
    id: `${RUN}:delta:${deltaSequence}`,
    transient: true,
  });
  return { ...base, pending, deltaSequence };
}

const shape = (items: readonly SessionEvent[]) =>
  items.map((item) => `${item.event.type}@${item.sequence}/${item.deltaSequence ?? "-"}`);

describe("DeltaMerger (issue #11: deltas from their own stream)", () => {
  it("while both consumers replay, interleaves by stored time as if one stream", () => {
    const merger = new DeltaMerger({ afterSequence: 9 });
    const out = [
      ...merger.event(event(10, "run.started", 1), 100),
      ...merger.delta(delta(1, 1), 150),
      ...merger.delta(delta(2, 0), 250), // the deltas consumer caught up
      ...merger.event(event(11, "run.completed", 0), 300),
    ];
    expect(shape(out)).toEqual([
      "run.started@10/-",
      "run.delta@10/1",
      "run.delta@10/2",
      "run.completed@11/-",
    ]);
  });

  it("holds a durable event while the deltas consumer may still replay older deltas", () => {
    const merger = new DeltaMerger();
    expect(merger.event(event(5, "run.started", 0), 200)).toEqual([]);
    // The deltas consumer delivers an older delta, then reports nothing more pending.
    expect(shape(merger.delta(delta(1, 0, "r0"), 100))).toEqual([
      "run.delta@0/1",
      "run.started@5/-",
    ]);
  });

  it("never yields a delta of a run after its end event: late deltas are dropped", () => {
    const merger = new DeltaMerger();
    merger.caughtUp("deltas");
    expect(shape(merger.event(event(5, "run.completed", 0), 200))).toEqual(["run.completed@5/-"]);
    expect(merger.delta(delta(1), 150)).toEqual([]); // stored before, but arrived after the end
    expect(merger.delta(delta(2), 400)).toEqual([]);
    expect(shape(merger.delta(delta(3, 0, "r2"), 500))).toEqual(["run.delta@5/3"]); // another run
  });

  it("a delta with pending 0 that the caller says is not the last keeps the end event held (issue #30)", () => {
    const merger = new DeltaMerger();
    merger.caughtUp("events");
    merger.caughtUp("deltas");
    // The caller re-checks the deltas side before a run's end goes out.
    merger.behind("deltas");
    expect(merger.isCaughtUp("deltas")).toBe(false);
    expect(merger.event(event(5, "run.completed", 0), 300)).toEqual([]);
    // Live deltas carry pending 0; the caller knows two more were delivered.
    expect(shape(merger.delta(delta(1, 0), 100, false))).toEqual(["run.delta@0/1"]);
    expect(shape(merger.delta(delta(2, 0), 200, false))).toEqual(["run.delta@0/2"]);
    expect(shape(merger.delta(delta(3, 0), 250, true))).toEqual([
      "run.delta@0/3",
      "run.completed@5/-",
    ]);
    expect(merger.isCaughtUp("deltas")).toBe(true);
  });

  it("firstOfUnknownRun is true once for a run none of whose durable events went out (issue #30)", () => {
    const merger = new DeltaMerger();
    merger.caughtUp("events");
    merger.caughtUp("deltas");
    expect(merger.firstOfUnknownRun(delta(1, 0, "r7"))).toBe(true);
    expect(merger.firstOfUnknownRun(delta(2, 0, "r7"))).toBe(false);
    // A run whose run.started went out is known.
    expect(shape(merger.event(event(3, "run.started", 0), 100))).toEqual(["run.started@3/-"]);
    expect(merger.firstOfUnknownRun(delta(3, 0, "r1"))).toBe(false);
    expect(merger.firstOfUnknownRun(delta(4, 0, "r2"))).toBe(true);
  });

  it("a resumed iteration places its first deltas after the sequence it resumed after", () => {
    const merger = new DeltaMerger({ afterSequence: 41 });
    merger.caughtUp("events");
    expect(shape(merger.delta(delta(7), 100))).toEqual(["run.delta@41/7"]);
  });

  it("a recreated consumer holds the other side again until it catches up", () => {
    const merger = new DeltaMerger();
    merger.caughtUp("events");
    merger.caughtUp("deltas");
    merger.behind("events");
    expect(merger.delta(delta(1), 100)).toEqual([]);
    expect(shape(merger.caughtUp("events"))).toEqual(["run.delta@0/1"]);
  });
});
