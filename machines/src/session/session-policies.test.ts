import type { SessionPolicy } from "@troupe/protocol";
import { describe, expect, it } from "vitest";
import { appendEntry, emitEvent, sendMessage } from "@troupe/protocol";
import { inboxEvent } from "../testing/inbox.js";
import { emittedTypes } from "../testing/pure-driver.js";
import {
  newSession,
  runFinished,
  sessionStep,
  sessionSteps,
  userMessage,
  type SessionSnapshot,
} from "../testing/session-kit.js";

/** A session with policy `policy` whose run r1 (message m1) is active. */
function runningWith(policy: SessionPolicy): SessionSnapshot {
  return sessionSteps(
    newSession(),
    inboxEvent("session.configure", { policy }, "m0"),
    userMessage("m1", { text: "first" }),
  ).snapshot;
}

const finishedR1 = (steersApplied = 0) =>
  runFinished({ runId: "r1", outcome: "completed", transcriptLength: 2, steersApplied });

describe("session: a message that arrives during a run", () => {
  it("enqueue (default): accepted as queued, runs when the active run finishes", () => {
    const queued = sessionStep(runningWith("enqueue"), userMessage("m2", { text: "second" }));
    expect(queued.snapshot.value).toBe("running");
    expect(queued.actions).toEqual([
      emitEvent("message.accepted", { messageId: "m2", type: "user.message", queued: true }),
    ]);

    const next = sessionStep(queued.snapshot, finishedR1());
    expect(next.snapshot.value).toBe("running");
    expect(next.actions).toEqual([
      appendEntry({
        log: "transcript",
        key: "s1",
        index: 2,
        entry: { role: "user", text: "second", messageId: "m2" },
      }),
      sendMessage({
        to: "run/s1",
        type: "run.start",
        priority: "default",
        payload: { runId: "r2", sessionId: "s1", maxModelCalls: 50, transcriptLength: 3 },
      }),
      emitEvent("run.started", { runId: "r2", messageId: "m2" }),
    ]);
    expect(next.snapshot.context).toMatchObject({ activeRunId: "r2", queue: [], runCount: 2 });
  });

  it("reject: message.rejected says a run is active; the message is neither admitted nor run", () => {
    const running = runningWith("reject");
    const rejected = sessionStep(running, userMessage("m2", { text: "x", clientMessageId: "c2" }));
    expect(rejected.actions).toEqual([
      emitEvent("message.rejected", {
        reason: `run r1 is active and the session's policy is "reject"`,
        code: "run_active",
        messageId: "m2",
        type: "user.message",
      }),
    ]);
    expect(rejected.snapshot.context).toEqual(running.context);
    // Not admitted, so the same client message id is welcome once the session is idle.
    const idle = sessionStep(rejected.snapshot, finishedR1());
    expect(emittedTypes(idle.actions)).toEqual(["session.idle"]);
    const retried = sessionStep(
      idle.snapshot,
      userMessage("m3", { text: "x", clientMessageId: "c2" }),
    );
    expect(emittedTypes(retried.actions)).toEqual(["message.accepted", "run.started"]);
  });

  it("interrupt: cancels the active run and runs the message as soon as that run finished", () => {
    const interrupted = sessionStep(runningWith("interrupt"), userMessage("m2", { text: "stop" }));
    expect(interrupted.snapshot.value).toBe("running");
    expect(interrupted.actions).toEqual([
      emitEvent("message.accepted", { messageId: "m2", type: "user.message", queued: true }),
      sendMessage({
        to: "run/s1",
        type: "run.cancel",
        payload: { runId: "r1", reason: "interrupted by a new message" },
      }),
    ]);
    const next = sessionStep(
      interrupted.snapshot,
      runFinished({ runId: "r1", outcome: "cancelled", transcriptLength: 2, steersApplied: 0 }),
    );
    expect(next.actions).toEqual([
      appendEntry({
        log: "transcript",
        key: "s1",
        index: 2,
        entry: { role: "user", text: "stop", messageId: "m2" },
      }),
      sendMessage({
        to: "run/s1",
        type: "run.start",
        priority: "default",
        payload: { runId: "r2", sessionId: "s1", maxModelCalls: 50, transcriptLength: 3 },
      }),
      emitEvent("run.started", { runId: "r2", messageId: "m2" }),
    ]);
    expect(next.snapshot.context).toMatchObject({ activeRunId: "r2", cancelRequested: false });
  });

  it("interrupt: run.cancel is sent once; interrupting messages run first, in arrival order", () => {
    const withPlain = sessionSteps(
      newSession(),
      userMessage("m1", { text: "first" }),
      userMessage("m2", { text: "plain, queued under enqueue" }),
      inboxEvent("session.configure", { policy: "interrupt" as const }, "m3"),
    ).snapshot;
    const first = sessionStep(withPlain, userMessage("m4", { text: "urgent" }));
    expect(first.actions.map((action) => action.type)).toEqual(["troupe.emit", "troupe.send"]);
    const second = sessionStep(first.snapshot, userMessage("m5", { text: "also urgent" }));
    expect(second.actions).toEqual([
      emitEvent("message.accepted", { messageId: "m5", type: "user.message", queued: true }),
    ]);
    expect(second.snapshot.context.queue.map((entry) => entry.messageId)).toEqual([
      "m4",
      "m5",
      "m2",
    ]);
  });

  it("steer: the text goes to the active run with run.steer", () => {
    const steered = sessionStep(
      runningWith("steer"),
      userMessage("m2", { text: "in Celsius", clientMessageId: "c2" }),
    );
    expect(steered.snapshot.value).toBe("running");
    expect(steered.actions).toEqual([
      emitEvent("message.accepted", {
        messageId: "m2",
        type: "user.message",
        clientMessageId: "c2",
        runId: "r1",
      }),
      sendMessage({
        to: "run/s1",
        type: "run.steer",
        payload: { runId: "r1", text: "in Celsius" },
      }),
    ]);
    // The run took the steer: the session goes idle.
    const idle = sessionStep(steered.snapshot, finishedR1(1));
    expect(idle.snapshot.value).toBe("idle");
    expect(idle.actions).toEqual([emitEvent("session.idle", { sessionId: "s1", lastRunId: "r1" })]);
  });

  it("steer: a steer the run did not take (it had already answered) runs as the next message", () => {
    const steered = sessionStep(runningWith("steer"), userMessage("m2", { text: "too late" }));
    const next = sessionStep(steered.snapshot, finishedR1(0));
    expect(next.snapshot.value).toBe("running");
    expect(next.actions).toContainEqual(
      appendEntry({
        log: "transcript",
        key: "s1",
        index: 2,
        entry: { role: "user", text: "too late", messageId: "m2" },
      }),
    );
    expect(next.actions).toContainEqual(emitEvent("run.started", { runId: "r2", messageId: "m2" }));
  });
});
