import type { SessionEvent } from "@troupe/client";
import { describe, expect, it } from "vitest";
import { SseEventIds, sseCursor, sseFrame } from "./sse-cursor.js";

const durable = (sequence: number): SessionEvent =>
  ({
    sequence,
    subject: "troupe.session.s1.events.run.started",
    pending: 0,
    event: {
      v: 1,
      id: `e${sequence}`,
      type: "run.started",
      payload: { runId: "r1" },
      meta: { actor: "session/s1", seq: sequence, timestampMs: 0 },
    },
  }) as unknown as SessionEvent;
const delta = (sequence: number, deltaSequence: number): SessionEvent =>
  ({
    ...durable(sequence),
    deltaSequence,
    event: { ...durable(sequence).event, type: "run.delta" },
  }) as SessionEvent;

describe("SSE cursor and ids", () => {
  it("reads Last-Event-ID before from, and from before the default 1", () => {
    expect(sseCursor(undefined, undefined)).toEqual({ fromSequence: 1, skipTransients: 0 });
    expect(sseCursor(undefined, 7)).toEqual({ fromSequence: 7, skipTransients: 0 });
    expect(sseCursor("12", 7)).toEqual({ fromSequence: 13, skipTransients: 0 });
    expect(sseCursor("12.3", 7)).toEqual({ fromSequence: 13, skipTransients: 3 });
  });

  it("numbers durable events by sequence and transients <seq>.<k> after them", () => {
    const ids = new SseEventIds(sseCursor(undefined, 1));
    expect(
      [delta(0, 1), durable(4), delta(4, 2), delta(4, 3), durable(6), delta(6, 4)].map((e) =>
        ids.next(e),
      ),
    ).toEqual(["0.1", "4", "4.1", "4.2", "6", "6.1"]);
  });

  it("resumed at <seq>.<k> skips the k transients the client has, then numbers on", () => {
    const ids = new SseEventIds(sseCursor("4.2", undefined));
    expect(
      [delta(4, 2), delta(4, 3), delta(4, 5), durable(6), delta(6, 6)].map((e) => ids.next(e)),
    ).toEqual([undefined, undefined, "4.3", "6", "6.1"]);
  });

  it("frames an event as id, event type and the envelope as one data line", () => {
    const frame = sseFrame("4", durable(4));
    expect(frame.endsWith("\n\n")).toBe(true);
    const lines = frame.trimEnd().split("\n");
    expect(lines.slice(0, 2)).toEqual(["id: 4", "event: run.started"]);
    expect(JSON.parse(lines[2]!.slice("data: ".length))).toMatchObject({
      id: "e4",
      type: "run.started",
    });
    expect(lines).toHaveLength(3);
  });
});
