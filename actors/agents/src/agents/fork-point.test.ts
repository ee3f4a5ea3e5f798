import { describe, expect, it } from "vitest";
import { findForkPoint, type StoredSessionEvent } from "./fork-point.js";

let actorSeq = 0;
const stored = (
  sequence: number,
  actor: string,
  type: string,
  payload: Record<string, unknown>,
): StoredSessionEvent => ({
  sequence,
  event: {
    v: 1,
    id: `${actor}:ev:${++actorSeq}`,
    type,
    payload,
    meta: { actor, seq: actorSeq, timestampMs: 0 },
  },
});
const usage = { inputTokens: 1, outputTokens: 1 };
// Session a: two runs (lengths 2 and 4), a third in progress; a subagent's event in between.
const history = [
  stored(10, "session/a", "session.created", { sessionId: "a", agent: "assistant" }),
  stored(11, "session/a", "run.started", { runId: "r1", messageId: "m1" }),
  stored(12, "run/a", "run.completed", { runId: "r1", text: "x", usage, transcriptLength: 2 }),
  stored(15, "session/a", "run.started", { runId: "r2", messageId: "m2" }),
  stored(16, "run/sub-t1", "run.completed", { runId: "r1", text: "y", usage, transcriptLength: 9 }),
  stored(17, "run/a", "run.failed", { runId: "r2", code: "x", message: "x", transcriptLength: 4 }),
  stored(20, "session/a", "run.started", { runId: "r3", messageId: "m3" }),
];

describe("findForkPoint (issue #19)", () => {
  it("without a point: the last ended run, not the one in progress", () => {
    expect(findForkPoint({ from: "a" }, history)).toEqual({
      transcriptLength: 4,
      transcriptBase: [{ sessionId: "a", length: 4 }],
      runId: "r2",
      agent: "assistant",
    });
  });

  it("at a run: the transcript that run left", () => {
    expect(findForkPoint({ from: "a", atRunId: "r1" }, history)).toMatchObject({
      transcriptLength: 2,
      runId: "r1",
    });
  });

  it("at a sequence: the last run that ended at or before it (other actors' events skipped)", () => {
    expect(findForkPoint({ from: "a", atSequence: 16 }, history)).toMatchObject({
      transcriptLength: 2,
      transcriptBase: [{ sessionId: "a", length: 2 }],
      runId: "r1",
    });
    expect(findForkPoint({ from: "a", atSequence: 11 }, history)).toEqual({
      transcriptLength: 0,
      transcriptBase: [],
      agent: "assistant",
    });
  });

  it("a fork of a fork shares the source's base and the source's own entries", () => {
    const fork = [
      stored(30, "session/b", "session.created", {
        sessionId: "b",
        forkedFrom: { sessionId: "a" },
      }),
      stored(31, "session/b", "session.forked", {
        sessionId: "b",
        from: "a",
        transcriptLength: 4,
        transcriptBase: [{ sessionId: "a", length: 4 }],
      }),
    ];
    expect(findForkPoint({ from: "b" }, fork)).toEqual({
      transcriptLength: 4,
      transcriptBase: [{ sessionId: "a", length: 4 }],
    });
    const ran = [
      ...fork,
      stored(40, "run/b", "run.completed", { runId: "r1", text: "z", usage, transcriptLength: 6 }),
    ];
    expect(findForkPoint({ from: "b" }, ran).transcriptBase).toEqual([
      { sessionId: "a", length: 4 },
      { sessionId: "b", length: 6 },
    ]);
  });

  it("carries the source's configured settings as they were at the point", () => {
    const configured = (sequence: number, settings: Record<string, unknown>, verdict = "applied") =>
      stored(sequence, "session/a", "command.settled", {
        commandId: `c${sequence}`,
        command: "session.configure",
        verdict,
        settings,
      });
    const withSettings = [
      ...history.slice(0, 3),
      configured(13, { toolPolicy: { deny: ["charge*"] } }),
      ...history.slice(3, 6),
      configured(18, { toolPolicy: { deny: ["charge*", "wipe"] }, maxModelCalls: 3 }),
      stored(19, "session/a", "command.settled", {
        commandId: "c19",
        command: "run.cancel",
        verdict: "applied",
      }),
      ...history.slice(6),
    ];
    expect(findForkPoint({ from: "a", atRunId: "r1" }, withSettings).settings).toBeUndefined();
    expect(findForkPoint({ from: "a", atRunId: "r2" }, withSettings).settings).toEqual({
      toolPolicy: { deny: ["charge*"] },
    });
    expect(findForkPoint({ from: "a" }, withSettings).settings).toEqual({
      toolPolicy: { deny: ["charge*", "wipe"] },
      maxModelCalls: 3,
    });
    // A fork's own settings come from its session.forked; malformed settings are ignored.
    const fork = [
      stored(30, "session/b", "session.created", { sessionId: "b" }),
      stored(31, "session/b", "session.forked", {
        sessionId: "b",
        from: "a",
        transcriptLength: 2,
        transcriptBase: [{ sessionId: "a", length: 2 }],
        settings: { policy: "steer" },
      }),
      stored(32, "session/b", "command.settled", {
        commandId: "c32",
        command: "session.configure",
        verdict: "applied",
        settings: { maxModelCalls: 0 },
      }),
    ];
    expect(findForkPoint({ from: "b" }, fork).settings).toEqual({ policy: "steer" });
  });

  it("refuses an unknown session, a sequence out of range and a run that has not ended", () => {
    expect(() => findForkPoint({ from: "zz" }, history)).toThrow(
      expect.objectContaining({ code: "unknown_session" }),
    );
    expect(() => findForkPoint({ from: "a", atSequence: 9 }, history)).toThrow(
      expect.objectContaining({ code: "fork_point_out_of_range" }),
    );
    expect(() => findForkPoint({ from: "a", atSequence: 21 }, history)).toThrow(
      expect.objectContaining({ code: "fork_point_out_of_range" }),
    );
    expect(() => findForkPoint({ from: "a", atRunId: "r3" }, history)).toThrow(
      expect.objectContaining({ code: "fork_point_out_of_range", retryable: false }),
    );
  });
});
