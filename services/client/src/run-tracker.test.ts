import { describe, expect, it } from "vitest";
import { outcomeOf, RunTracker } from "./run-tracker.js";
import { testEvent } from "./test-events.js";

const usage = { inputTokens: 3, outputTokens: 5 };
const run = { actor: "run/s1" };

describe("RunTracker", () => {
  it("learns the run from message.accepted and reports run.completed of that run", () => {
    const tracker = new RunTracker("s1", { clientMessageId: "c1" });
    expect(tracker.observe(testEvent(1, "session.created", { sessionId: "s1" }))).toEqual({
      kind: "pending",
    });
    tracker.observe(
      testEvent(2, "message.accepted", {
        messageId: "cm:c1",
        type: "user.message",
        clientMessageId: "c1",
        runId: "r2",
      }),
    );
    expect(tracker.runId).toBe("r2");
    // Another run's completion does not count.
    const other = testEvent(3, "run.completed", { runId: "r1", text: "old", usage }, run);
    expect(tracker.observe(other).kind).toBe("pending");
    const done = testEvent(4, "run.completed", { runId: "r2", text: "hi", usage }, run);
    expect(tracker.observe(done)).toEqual({
      kind: "outcome",
      outcome: { status: "completed", runId: "r2", text: "hi", usage, sequence: 4 },
    });
  });

  it("matches a rejection naming the message by its inbox sequence (a message the host could not decode)", () => {
    const tracker = new RunTracker("s1", { clientMessageId: "c9", inboxSequence: 41 });
    const other = testEvent(1, "message.rejected", {
      reason: "bad",
      code: "decode_failed",
      messageId: "session/s1:in:40",
    });
    expect(tracker.observe(other).kind).toBe("pending");
    const ours = testEvent(2, "message.rejected", {
      reason: "agent: too short",
      code: "decode_failed",
      messageId: "session/s1:in:41",
    });
    expect(tracker.observe(ours)).toEqual({
      kind: "rejected",
      rejection: {
        messageId: "session/s1:in:41",
        code: "decode_failed",
        reason: "agent: too short",
        sequence: 2,
      },
    });
  });

  it("for a queued message, takes the run from the run.started naming its message id", () => {
    const tracker = new RunTracker("s1", { clientMessageId: "c2" });
    tracker.observe(
      testEvent(1, "message.accepted", {
        messageId: "cm:c2",
        type: "user.message",
        clientMessageId: "c2",
        queued: true,
      }),
    );
    expect(tracker.runId).toBeUndefined();
    tracker.observe(testEvent(2, "run.started", { runId: "r1", messageId: "other" }));
    expect(tracker.runId).toBeUndefined();
    tracker.observe(testEvent(3, "run.started", { runId: "r2", messageId: "cm:c2" }));
    expect(tracker.runId).toBe("r2");
    const failed = testEvent(
      4,
      "run.failed",
      { runId: "r2", code: "model_error", message: "no" },
      run,
    );
    expect(tracker.observe(failed)).toEqual({
      kind: "outcome",
      outcome: { status: "failed", runId: "r2", code: "model_error", message: "no", sequence: 4 },
    });
  });

  it("matches a message accepted under another envelope id by its client message id", () => {
    const tracker = new RunTracker("s1", { clientMessageId: "c3" });
    tracker.observe(
      testEvent(1, "message.accepted", {
        messageId: "session/s1:in:9",
        type: "user.message",
        clientMessageId: "c3",
        queued: true,
      }),
    );
    tracker.observe(testEvent(2, "run.started", { runId: "r4", messageId: "session/s1:in:9" }));
    expect(tracker.runId).toBe("r4");
  });

  it("reports message.rejected naming the message, before it was accepted", () => {
    const tracker = new RunTracker("s1", { clientMessageId: "c4" });
    const rejected = testEvent(5, "message.rejected", {
      messageId: "cm:c4",
      code: "run_active",
      reason: "a run is active",
    });
    expect(tracker.observe(rejected)).toEqual({
      kind: "rejected",
      rejection: { messageId: "cm:c4", code: "run_active", reason: "a run is active", sequence: 5 },
    });
  });

  it("reports a message.duplicate of its client message id unless told to ignore it", () => {
    const duplicate = testEvent(8, "message.duplicate", {
      messageId: "cm:c5",
      clientMessageId: "c5",
    });
    expect(new RunTracker("s1", { clientMessageId: "c5" }).observe(duplicate)).toEqual({
      kind: "duplicate",
      sequence: 8,
    });
    const ignoring = new RunTracker("s1", { clientMessageId: "c5" }, { ignoreDuplicates: true });
    expect(ignoring.observe(duplicate).kind).toBe("pending");
  });

  it("ignores a subagent's events published on the same session subjects", () => {
    const tracker = new RunTracker("s1", { runId: "r1" });
    const subagent = testEvent(
      1,
      "run.completed",
      { runId: "r1", text: "sub", usage },
      { actor: "run/sub-abc" },
    );
    expect(tracker.observe(subagent).kind).toBe("pending");
    const cancelled = testEvent(2, "run.cancelled", { runId: "r1", usage, reason: "stop" }, run);
    expect(tracker.observe(cancelled)).toEqual({
      kind: "outcome",
      outcome: { status: "cancelled", runId: "r1", usage, reason: "stop", sequence: 2 },
    });
  });
});

describe("outcomeOf", () => {
  it("reads the three run outcomes and nothing else", () => {
    expect(
      outcomeOf(testEvent(3, "run.cancelled", { runId: "r1", usage, partialText: "par" }).event, 3),
    ).toEqual({ status: "cancelled", runId: "r1", usage, partialText: "par", sequence: 3 });
    expect(outcomeOf(testEvent(4, "run.started", { runId: "r1" }).event, 4)).toBeUndefined();
  });
});
