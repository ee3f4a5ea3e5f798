import { describe, expect, it } from "vitest";
import { inspectionNotes } from "./inspect-actor.js";
import type { SnapshotGenerationView } from "./snapshot-generation-view.js";

const generation = (
  overrides: Partial<SnapshotGenerationView> & { generation: number },
): SnapshotGenerationView => ({
  latest: false,
  machineVersion: "1",
  stateValue: "idle",
  status: "active",
  eventSeq: 1,
  inboxSeq: overrides.generation * 10,
  effects: [],
  timers: [],
  outboxItems: 0,
  context: {},
  ...overrides,
});

describe("inspectionNotes", () => {
  it("finds nothing odd in a consistent actor", () => {
    expect(
      inspectionNotes({
        generations: [generation({ generation: 3, latest: true }), generation({ generation: 2 })],
        unscheduledTimerIds: [],
        dirty: false,
        outboxConfirmed: true,
      }),
    ).toEqual([]);
  });

  it("flags out-of-order history, unscheduled timers and pending effects missing from the dirty set", () => {
    const notes = inspectionNotes({
      generations: [
        generation({
          generation: 3,
          latest: true,
          effects: [{ effectId: "fx-1", effect: "model.call", cancelled: false }],
        }),
        generation({ generation: 4, inboxSeq: 99 }),
      ],
      unscheduledTimerIds: ["t-1"],
      dirty: false,
      outboxConfirmed: true,
    });
    expect(notes).toHaveLength(4);
    expect(notes[0]).toMatch(/generation 4 is kept after generation 3/);
    expect(notes[1]).toMatch(/inbox sequence 99, later than generation 3 \(30\)/);
    expect(notes[2]).toMatch(/not in the shard's timer set: t-1/);
    expect(notes[3]).toMatch(/not in its shard's dirty set/);
  });

  it("does not flag an unconfirmed empty outbox", () => {
    expect(
      inspectionNotes({
        generations: [generation({ generation: 1, latest: true })],
        unscheduledTimerIds: [],
        dirty: false,
        outboxConfirmed: false,
      }),
    ).toEqual([]);
  });
});
