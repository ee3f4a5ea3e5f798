import { describe, expect, it } from "vitest";
import { EventDeduplicator } from "./event-deduplicator.js";
import { testEvent } from "./test-events.js";

describe("EventDeduplicator", () => {
  it("admits growing sequences and drops a re-delivery at or below the last admitted one", () => {
    const deduplicator = new EventDeduplicator();
    const admitted = [1, 2, 2, 3, 1, 4].map((sequence) =>
      deduplicator.admit(testEvent(sequence, "session.idle", {}, { id: `e${sequence}` })),
    );
    expect(admitted).toEqual([true, true, false, true, false, true]);
    expect(deduplicator.nextSequence).toBe(5);
  });

  it("starts after afterSequence", () => {
    const deduplicator = new EventDeduplicator({ afterSequence: 10 });
    expect(deduplicator.nextSequence).toBe(11);
    expect(deduplicator.admit(testEvent(10, "session.idle", {}))).toBe(false);
    expect(deduplicator.admit(testEvent(11, "session.idle", {}))).toBe(true);
  });

  it("drops a non-transient event re-published at a new sequence with the same envelope id", () => {
    const deduplicator = new EventDeduplicator();
    expect(deduplicator.admit(testEvent(1, "run.started", {}, { id: "run/s1:ev:1" }))).toBe(true);
    expect(deduplicator.admit(testEvent(7, "run.started", {}, { id: "run/s1:ev:1" }))).toBe(false);
    // The sequence still moves on, so a recreated consumer starts after it.
    expect(deduplicator.nextSequence).toBe(8);
  });

  it("never drops transient events by id", () => {
    const deduplicator = new EventDeduplicator();
    const delta = (sequence: number) =>
      testEvent(sequence, "run.delta", {}, { id: "run/s1:delta:m:1:0", transient: true });
    expect(deduplicator.admit(delta(1))).toBe(true);
    expect(deduplicator.admit(delta(2))).toBe(true);
  });

  it("forgets the oldest ids past rememberedIds (bounded memory)", () => {
    const deduplicator = new EventDeduplicator({ rememberedIds: 2 });
    deduplicator.admit(testEvent(1, "session.idle", {}, { id: "a" }));
    deduplicator.admit(testEvent(2, "session.idle", {}, { id: "b" }));
    deduplicator.admit(testEvent(3, "session.idle", {}, { id: "c" }));
    expect(deduplicator.admit(testEvent(4, "session.idle", {}, { id: "a" }))).toBe(true);
    expect(deduplicator.admit(testEvent(5, "session.idle", {}, { id: "c" }))).toBe(false);
  });

  it("skip moves past an unyielded message", () => {
    const deduplicator = new EventDeduplicator();
    deduplicator.skip(3);
    expect(deduplicator.nextSequence).toBe(4);
    expect(deduplicator.admit(testEvent(3, "session.idle", {}))).toBe(false);
  });
});
