import type { SessionEvent } from "@troupe/client";
import { InvalidTaskStreamCursorError, RunTaskTracker } from "@troupe/client/tasks";
import type { EventEnvelope } from "@troupe/protocol";
import { describe, expect, it } from "vitest";
import { AnswerProgress, resumeCursorOfMeta } from "./answer-progress.js";

const ref = { sessionId: "s1", clientMessageId: "c1" };

function envelope(type: string, payload: Record<string, unknown>, actor: string): EventEnvelope {
  return {
    v: 1,
    id: `${actor}:${type}:${JSON.stringify(payload)}`,
    type,
    payload,
    meta: { actor, seq: 1, timestampMs: 1_000 },
  };
}
const durable = (sequence: number, type: string, payload: Record<string, unknown>) =>
  ({
    sequence,
    subject: "",
    pending: 0,
    event: envelope(type, payload, "session/s1"),
  }) as SessionEvent;
const delta = (deltaSequence: number, after: number, text: string, runId = "r1") =>
  ({
    sequence: after,
    deltaSequence,
    subject: "",
    pending: 0,
    event: envelope(
      "run.delta",
      { runId, modelCallId: "mc1", attempt: 1, kind: "text", text, index: deltaSequence },
      "run/s1",
    ),
  }) as SessionEvent;

const session: SessionEvent[] = [
  durable(1, "message.accepted", {
    messageId: "cm:c1",
    type: "user.message",
    clientMessageId: "c1",
    runId: "r1",
  }),
  delta(1, 1, "other run ", "r0"),
  delta(2, 1, "It "),
  delta(3, 1, "is "),
  durable(2, "tool.started", { toolCallId: "t1", tool: "clock" }),
  delta(4, 2, "noon."),
];

/** The progress a request sends reading `events` (one follow per entry), with its cursors. */
function progressOf(
  follows: readonly (readonly SessionEvent[])[],
  after?: Parameters<typeof resumeCursorOfMeta>[0],
) {
  const progress = new AnswerProgress(resumeCursorOfMeta(after));
  const sent: string[] = [];
  for (const events of follows) {
    progress.restart();
    const tracker = new RunTaskTracker(ref);
    for (const event of events) {
      for (const { item, cursor } of progress.read(event, tracker.observe(event)))
        sent.push(`${cursor} ${item}`);
    }
  }
  return sent;
}

describe("AnswerProgress", () => {
  it("sends the run's text deltas with their cursors, not another run's", () => {
    expect(progressOf([session])).toEqual(["1.2 It ", "1.3 is ", "2.4 noon."]);
  });

  it("after a cursor, sends only the deltas after it", () => {
    expect(progressOf([session], { "dev.troupe/cursor": "1.3" })).toEqual(["2.4 noon."]);
    expect(progressOf([session], { "dev.troupe/cursor": "2.4" })).toEqual([]);
  });

  it("reading the session again (after an elicitation) repeats nothing", () => {
    expect(progressOf([session.slice(0, 4), session])).toEqual(["1.2 It ", "1.3 is ", "2.4 noon."]);
  });
});

describe("resumeCursorOfMeta", () => {
  it("reads _meta['dev.troupe/cursor'], none without it", () => {
    expect(resumeCursorOfMeta({ "dev.troupe/cursor": "41.17" })).toEqual({
      eventSequence: 41,
      deltaSequence: 17,
    });
    expect(resumeCursorOfMeta({ progressToken: 3 })).toBeUndefined();
    expect(resumeCursorOfMeta(undefined)).toBeUndefined();
  });

  it.each([41.17, "41", ""])("refuses %j with InvalidTaskStreamCursorError", (value) => {
    expect(() => resumeCursorOfMeta({ "dev.troupe/cursor": value })).toThrow(
      InvalidTaskStreamCursorError,
    );
  });
});
