import type { EventEnvelope } from "@troupe/protocol";
import { describe, expect, it } from "vitest";
import type { TrackedEvent } from "./run-task-status.js";
import {
  cursorHoldsEnd,
  compareTaskStreamCursors,
  formatTaskStreamCursor,
  InvalidTaskStreamCursorError,
  parseTaskStreamCursor,
  TaskStreamCursors,
  type PlacedItem,
} from "./task-stream-cursor.js";

describe("task stream cursors: the text", () => {
  it("format a pair, or a pair and a part, and read back", () => {
    expect(formatTaskStreamCursor({ eventSequence: 41, deltaSequence: 17 })).toBe("41.17");
    expect(formatTaskStreamCursor({ eventSequence: 41, deltaSequence: 17, part: 1 })).toBe(
      "41.17.1",
    );
    expect(parseTaskStreamCursor("41.17")).toEqual({ eventSequence: 41, deltaSequence: 17 });
    expect(parseTaskStreamCursor("0.0")).toEqual({ eventSequence: 0, deltaSequence: 0 });
    expect(parseTaskStreamCursor("9007199254740991.3.2")).toEqual({
      eventSequence: 9_007_199_254_740_991,
      deltaSequence: 3,
      part: 2,
    });
  });

  it.each([
    "",
    "41",
    "41.",
    ".17",
    "41.17.",
    "41.17.0",
    "041.17",
    "-1.0",
    "1.2.3.4",
    " 1.2",
    "1e3.0",
    "9007199254740992.0",
    "a.b",
  ])("refuse %j with InvalidTaskStreamCursorError (invalid_options, not retryable)", (text) => {
    let caught: unknown;
    try {
      parseTaskStreamCursor(text);
    } catch (error) {
      caught = error;
    }
    expect(InvalidTaskStreamCursorError.isInstance(caught)).toBe(true);
    const error = caught as InvalidTaskStreamCursorError;
    expect(error.code).toBe("invalid_options");
    expect(error.retryable).toBe(false);
    expect(error.cursor).toBe(text);
    expect(error.details).toEqual({ cursor: text });
  });

  it("order by event sequence, then delta sequence, then part (no part last)", () => {
    const texts = ["3.1", "2.9", "3.0", "3.1.1", "0.0", "3.1.2", "10.0"];
    const sorted = [...texts].sort((a, b) =>
      compareTaskStreamCursors(parseTaskStreamCursor(a), parseTaskStreamCursor(b)),
    );
    expect(sorted).toEqual(["0.0", "2.9", "3.0", "3.1.1", "3.1.2", "3.1", "10.0"]);
  });
});

const envelope = {} as EventEnvelope;
/** A durable event at events-stream sequence `sequence`. */
const durable = (sequence: number): TrackedEvent => ({ sequence, event: envelope });
/** A delta at deltas-stream sequence `deltaSequence`, read after durable event `after`. */
const delta = (deltaSequence: number, after: number): TrackedEvent => ({
  sequence: after,
  deltaSequence,
  event: envelope,
});

/** A session read in one order: each event with the items a stream makes of it. */
type Reading = ReadonlyArray<readonly [TrackedEvent, readonly string[]]>;

/** What a stream sends reading `reading`, resuming after `after`. */
function streamOf(reading: Reading, after?: string): PlacedItem<string>[] {
  const cursors = new TaskStreamCursors(
    after === undefined ? undefined : parseTaskStreamCursor(after),
  );
  return reading.flatMap(([event, items]) => cursors.place(event, items));
}

// A run: started (1), three deltas, a tool call that gives no item (2), two
// more deltas, and run.completed (3), which gives the last chunk and the final
// state. `live` is the order a stream that followed the run read it in.
const live: Reading = [
  [durable(1), ["working"]],
  [delta(1, 1), ["chunk a"]],
  [delta(2, 1), ["chunk b"]],
  [durable(2), []],
  [delta(3, 2), ["chunk c"]],
  [delta(4, 2), ["chunk d"]],
  [durable(3), ["last chunk", "completed"]],
];
// The same events read again from the start, the two streams interleaved
// differently (each stream still in its own order).
const replayed: Reading = [
  [durable(1), ["working"]],
  [durable(2), []],
  [delta(1, 2), ["chunk a"]],
  [delta(2, 2), ["chunk b"]],
  [delta(3, 2), ["chunk c"]],
  [delta(4, 2), ["chunk d"]],
  [durable(3), ["last chunk", "completed"]],
];

describe("task stream cursors: resuming", () => {
  it("give every item a cursor that grows, a part for each item but the last of one event", () => {
    const sent = streamOf(live);
    expect(sent.map((placed) => [placed.item, placed.cursor])).toEqual([
      ["working", "1.0"],
      ["chunk a", "1.1"],
      ["chunk b", "1.2"],
      ["chunk c", "2.3"],
      ["chunk d", "2.4"],
      ["last chunk", "3.4.1"],
      ["completed", "3.4"],
    ]);
    const cursors = sent.map((placed) => parseTaskStreamCursor(placed.cursor));
    for (let index = 1; index < cursors.length; index++) {
      expect(compareTaskStreamCursors(cursors[index - 1]!, cursors[index]!)).toBeLessThan(0);
    }
  });

  it("after any item, a stream reading the session again sends exactly the items after it", () => {
    const all = streamOf(live).map((placed) => placed.item);
    for (const [index, placed] of streamOf(live).entries()) {
      for (const reading of [live, replayed]) {
        const rest = streamOf(reading, placed.cursor).map((next) => next.item);
        expect([...all.slice(0, index + 1), ...rest]).toEqual(all);
      }
    }
  });

  it("from 0.0 send everything, after the last cursor nothing", () => {
    expect(streamOf(replayed, "0.0").map((placed) => placed.item)).toEqual(
      streamOf(live).map((placed) => placed.item),
    );
    expect(streamOf(replayed, "3.4")).toEqual([]);
  });

  it("tell what the client already has: events at or before the cursor, not the rest of a split event", () => {
    const cursors = new TaskStreamCursors(parseTaskStreamCursor("3.2.1"));
    expect(cursors.sent(durable(2))).toBe(true);
    expect(cursors.sent(delta(2, 1))).toBe(true);
    expect(cursors.sent(delta(3, 1))).toBe(false);
    expect(cursors.sent(durable(3))).toBe(false);
    expect(new TaskStreamCursors(parseTaskStreamCursor("3.2")).sent(durable(3))).toBe(true);
    expect(new TaskStreamCursors().sent(durable(1))).toBe(false);
  });

  it("refuse two items for one delta", () => {
    expect(() => new TaskStreamCursors().place(delta(1, 0), ["a", "b"])).toThrow(RangeError);
  });
});

describe("task stream cursors: a cursor that holds the task's end", () => {
  const ended = { state: "completed" as const, sequence: 56, endedSequence: 55 };
  it("holds it when the ending event is at or before the cursor's event sequence, whatever its delta sequence", () => {
    expect(cursorHoldsEnd({ eventSequence: 55, deltaSequence: 0 }, ended)).toBe(true);
    expect(cursorHoldsEnd({ eventSequence: 56, deltaSequence: 39 }, ended)).toBe(true);
  });
  it("does not before the end, for a task still going, or without a cursor", () => {
    expect(cursorHoldsEnd({ eventSequence: 54, deltaSequence: 39 }, ended)).toBe(false);
    expect(
      cursorHoldsEnd({ eventSequence: 60, deltaSequence: 0 }, { state: "working", sequence: 60 }),
    ).toBe(false);
    expect(cursorHoldsEnd(undefined, ended)).toBe(false);
  });
});
