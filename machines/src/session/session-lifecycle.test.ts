import { describe, expect, it } from "vitest";
import { emitEvent, sendMessage } from "@troupe/protocol";
import { commandSettled } from "../host-actions/command-verdict.js";
import { inboxEvent } from "../testing/inbox.js";
import {
  newSession,
  runFinished,
  sessionStep,
  sessionSteps,
  userMessage,
} from "../testing/session-kit.js";

const running = () => sessionStep(newSession(), userMessage("m1", { text: "first" })).snapshot;
const cancel = (payload: { runId?: string; reason?: string }, messageId = "c1") =>
  inboxEvent("run.cancel", payload, messageId);
const steer = (payload: { text: string; runId?: string }, messageId = "s1") =>
  inboxEvent("run.steer", payload, messageId);
const close = (messageId = "x1") => inboxEvent("session.close", {}, messageId);
/** The `command.settled` a step emits for command `messageId` of `type`. */
const verdict = (
  type: string,
  messageId: string,
  outcome: Parameters<typeof commandSettled>[1],
  details: Parameters<typeof commandSettled>[2] = {},
) => commandSettled({ type, messageId }, outcome, details);

describe("session: runs ending", () => {
  it("run.finished of the active run with nothing queued: idle and session.idle", () => {
    const { snapshot, actions } = sessionStep(
      running(),
      runFinished({ runId: "r1", outcome: "failed", transcriptLength: 1, steersApplied: 0 }),
    );
    expect(snapshot.value).toBe("idle");
    expect(actions).toEqual([emitEvent("session.idle", { sessionId: "s1", lastRunId: "r1" })]);
    expect(snapshot.context).toMatchObject({ activeRunId: undefined, transcriptLength: 1 });
  });

  it("run.finished of another run, or while idle, is ignored", () => {
    const before = running();
    const stale = sessionStep(
      before,
      runFinished({ runId: "r9", outcome: "completed", transcriptLength: 7, steersApplied: 0 }),
    );
    expect(stale.actions).toEqual([]);
    expect(stale.snapshot.value).toBe("running");
    expect(stale.snapshot.context).toEqual(before.context);
    const idle = sessionStep(
      newSession(),
      runFinished({ runId: "r1", outcome: "completed", transcriptLength: 2, steersApplied: 0 }),
    );
    expect(idle.actions).toEqual([]);
    expect(idle.snapshot.value).toBe("idle");
  });
});

describe("session: run.cancel and run.steer from users", () => {
  it("run.cancel without a run id, or with the active one, goes to the run actor once", () => {
    const forwarded = sessionStep(running(), cancel({ reason: "user pressed stop" }));
    expect(forwarded.actions).toEqual([
      verdict("run.cancel", "c1", "applied", { runId: "r1" }),
      sendMessage({
        to: "run/s1",
        type: "run.cancel",
        payload: { runId: "r1", reason: "user pressed stop" },
      }),
    ]);
    expect(forwarded.snapshot.value).toBe("running");
    expect(sessionStep(running(), cancel({ runId: "r1" })).actions).toEqual([
      verdict("run.cancel", "c1", "applied", { runId: "r1" }),
      sendMessage({ to: "run/s1", type: "run.cancel", payload: { runId: "r1" } }),
    ]);
    const again = sessionStep(forwarded.snapshot, cancel({}, "c2"));
    expect(again.actions).toEqual([
      verdict("run.cancel", "c2", "already_settled", {
        reason: "run r1 is being cancelled already",
        runId: "r1",
      }),
    ]);
    expect(again.snapshot.context).toEqual(forwarded.snapshot.context);
  });

  it("run.cancel for another run, or while idle, changes nothing and says there is nothing to act on", () => {
    const before = running();
    const other = sessionStep(before, cancel({ runId: "r7" }));
    expect(other.actions).toEqual([
      verdict("run.cancel", "c1", "nothing_to_act_on", {
        reason: "run r7 is not the active run (r1)",
        runId: "r7",
      }),
    ]);
    expect(other.snapshot.context).toEqual(before.context);
    const idle = sessionStep(newSession(), cancel({}));
    expect(idle.actions).toEqual([
      verdict("run.cancel", "c1", "nothing_to_act_on", {
        reason: "session s1 has no active run",
      }),
    ]);
    expect(idle.snapshot.value).toBe("idle");
    expect(idle.snapshot.context).toEqual(newSession().context);
  });

  it("run.steer during a run is accepted and forwarded, whatever the policy", () => {
    const { snapshot, actions } = sessionStep(running(), steer({ text: "shorter, please" }));
    expect(actions).toEqual([
      emitEvent("message.accepted", { messageId: "s1", type: "run.steer", runId: "r1" }),
      verdict("run.steer", "s1", "applied", { runId: "r1" }),
      sendMessage({
        to: "run/s1",
        type: "run.steer",
        payload: { runId: "r1", text: "shorter, please" },
      }),
    ]);
    expect(snapshot.context.steered.map((entry) => entry.messageId)).toEqual(["s1"]);
  });

  it("run.steer while idle or for another run is rejected", () => {
    expect(sessionStep(newSession(), steer({ text: "x" })).actions).toEqual([
      emitEvent("message.rejected", {
        reason: "no run is active to steer",
        code: "no_active_run",
        messageId: "s1",
        type: "run.steer",
      }),
    ]);
    expect(sessionStep(running(), steer({ text: "x", runId: "r0" })).actions).toEqual([
      emitEvent("message.rejected", {
        reason: "run r0 is not the active run (r1)",
        code: "run_not_active",
        messageId: "s1",
        type: "run.steer",
      }),
    ]);
  });
});

describe("session: closing", () => {
  it("session.close while idle closes at once; afterwards every request is refused", () => {
    const idle = sessionSteps(
      newSession(),
      userMessage("m1", { text: "hi" }),
      runFinished({ runId: "r1", outcome: "completed", transcriptLength: 2, steersApplied: 0 }),
    ).snapshot;
    const closed = sessionStep(idle, close());
    expect(closed.snapshot.value).toBe("closed");
    expect(closed.actions).toEqual([
      verdict("session.close", "x1", "applied"),
      emitEvent("session.closed", { sessionId: "s1", lastRunId: "r1" }),
    ]);
    const refused = (messageId: string, type: string) =>
      emitEvent("message.rejected", {
        reason: "session s1 is closed",
        code: "session_closed",
        messageId,
        type,
      });
    expect(sessionStep(closed.snapshot, userMessage("m2", { text: "more" })).actions).toEqual([
      refused("m2", "user.message"),
    ]);
    expect(sessionStep(closed.snapshot, steer({ text: "x" })).actions).toEqual([
      refused("s1", "run.steer"),
    ]);
    expect(
      sessionStep(closed.snapshot, inboxEvent("session.configure", { model: "m" }, "k1")).actions,
    ).toEqual([refused("k1", "session.configure")]);
    expect(sessionStep(closed.snapshot, close("x2")).actions).toEqual([
      verdict("session.close", "x2", "already_settled", { reason: "session s1 is closed already" }),
    ]);
    expect(sessionStep(closed.snapshot, cancel({})).actions).toEqual([refused("c1", "run.cancel")]);
  });

  it("a session closed before any message says so without a last run", () => {
    expect(sessionStep(newSession(), close()).actions).toEqual([
      verdict("session.close", "x1", "applied"),
      emitEvent("session.closed", { sessionId: "s1" }),
    ]);
  });

  it("session.close during a run cancels it and closes once it finished, dropping the queue", () => {
    const queued = sessionStep(running(), userMessage("m2", { text: "queued" })).snapshot;
    const closing = sessionStep(queued, close());
    expect(closing.snapshot.value).toBe("closing");
    expect(closing.actions).toEqual([
      verdict("session.close", "x1", "applied", { runId: "r1" }),
      sendMessage({
        to: "run/s1",
        type: "run.cancel",
        payload: { runId: "r1", reason: "the session is closing" },
      }),
    ]);
    expect(sessionStep(closing.snapshot, userMessage("m3", { text: "late" })).actions).toEqual([
      emitEvent("message.rejected", {
        reason: "session s1 is closing",
        code: "session_closed",
        messageId: "m3",
        type: "user.message",
      }),
    ]);
    const stale = sessionStep(
      closing.snapshot,
      runFinished({ runId: "r0", outcome: "completed", transcriptLength: 9, steersApplied: 0 }),
    );
    expect(stale.snapshot.value).toBe("closing");
    const closed = sessionStep(
      closing.snapshot,
      runFinished({ runId: "r1", outcome: "cancelled", transcriptLength: 2, steersApplied: 0 }),
    );
    expect(closed.snapshot.value).toBe("closed");
    expect(closed.actions).toEqual([
      emitEvent("message.rejected", {
        reason: "session s1 closed before the message ran",
        code: "session_closed",
        messageId: "m2",
      }),
      emitEvent("session.closed", { sessionId: "s1", lastRunId: "r1" }),
    ]);
    expect(closed.snapshot.context).toMatchObject({ queue: [], transcriptLength: 2 });
  });

  it("a steer the run did not take is dropped on close without a second verdict (it had `applied`)", () => {
    const steered = sessionStep(running(), steer({ text: "shorter" }, "st1"));
    expect(steered.actions).toContainEqual(verdict("run.steer", "st1", "applied", { runId: "r1" }));
    const closing = sessionStep(steered.snapshot, close());
    const closed = sessionStep(
      closing.snapshot,
      runFinished({ runId: "r1", outcome: "completed", transcriptLength: 2, steersApplied: 0 }),
    );
    expect(closed.snapshot.value).toBe("closed");
    expect(closed.actions).toEqual([
      emitEvent("session.closed", { sessionId: "s1", lastRunId: "r1" }),
    ]);
    expect(closed.snapshot.context).toMatchObject({ queue: [] });
  });

  it("while closing, session.close and run.cancel change nothing, and no second run.cancel is sent", () => {
    const interrupted = sessionSteps(
      newSession(),
      inboxEvent("session.configure", { policy: "interrupt" as const }, "k1"),
      userMessage("m1", { text: "first" }),
      userMessage("m2", { text: "interrupting" }),
    ).snapshot;
    expect(interrupted.context.cancelRequested).toBe(true);
    const closing = sessionStep(interrupted, close());
    expect(closing.snapshot.value).toBe("closing");
    expect(closing.actions).toEqual([verdict("session.close", "x1", "applied", { runId: "r1" })]);
    const closeAgain = sessionStep(closing.snapshot, close("x2"));
    expect(closeAgain.actions).toEqual([
      verdict("session.close", "x2", "already_settled", {
        reason: "session s1 is closing already",
      }),
    ]);
    expect(closeAgain.snapshot.context).toEqual(closing.snapshot.context);
    expect(sessionStep(closing.snapshot, cancel({})).actions).toEqual([
      verdict("run.cancel", "c1", "already_settled", {
        reason: "session s1 is closing; its run is being cancelled already",
        runId: "r1",
      }),
    ]);
  });
});
