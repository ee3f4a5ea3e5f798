import type { EventEnvelope, EventType } from "@troupe/protocol";
import { describe, expect, it } from "vitest";
import { describeExpectation, matchesPartially, meetsExpectation } from "./event-expectation.js";

const settled = {
  v: 1,
  id: "e1",
  type: "tool.approval_settled",
  payload: { toolCallId: "c1", decision: "timed_out" },
  meta: { actor: "tool/x", seq: 3, timestampMs: 1_000 },
} as EventEnvelope<EventType>;

describe("matchesPartially", () => {
  it("matches objects by the fields named, recursively, ignoring the others", () => {
    expect(matchesPartially(settled, { payload: { decision: "timed_out" } })).toBe(true);
    expect(matchesPartially(settled, { payload: { decision: "denied" } })).toBe(false);
    expect(matchesPartially(settled, { payload: { missing: undefined } })).toBe(true);
    expect(matchesPartially(settled, { payload: { missing: 0 } })).toBe(false);
    expect(matchesPartially(settled, {})).toBe(true);
  });

  it("matches arrays element by element with equal lengths, other values with Object.is", () => {
    expect(matchesPartially({ list: [1, { a: 1, b: 2 }] }, { list: [1, { a: 1 }] })).toBe(true);
    expect(matchesPartially({ list: [1, 2] }, { list: [1] })).toBe(false);
    expect(matchesPartially({ list: "12" }, { list: ["1", "2"] })).toBe(false);
    expect(matchesPartially(Number.NaN, Number.NaN)).toBe(true);
    expect(matchesPartially(0, -0)).toBe(false);
    expect(matchesPartially(null, {})).toBe(false);
    expect(matchesPartially([], {})).toBe(false);
  });
});

describe("meetsExpectation and describeExpectation", () => {
  it("a type matches by type, a partial envelope by its fields", () => {
    expect(meetsExpectation(settled, "tool.approval_settled")).toBe(true);
    expect(meetsExpectation(settled, "tool.failed")).toBe(false);
    expect(
      meetsExpectation(settled, {
        type: "tool.approval_settled",
        payload: { decision: "timed_out" },
      }),
    ).toBe(true);
    expect(meetsExpectation(settled, { type: "tool.failed" })).toBe(false);
    expect(describeExpectation("run.completed")).toBe("run.completed");
    expect(describeExpectation({ type: "run.completed", payload: { text: "hi" } })).toBe(
      '{"type":"run.completed","payload":{"text":"hi"}}',
    );
  });
});
