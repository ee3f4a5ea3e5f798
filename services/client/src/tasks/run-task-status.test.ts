import type { EventEnvelope } from "@troupe/protocol";
import { describe, expect, it } from "vitest";
import { RunTaskTracker, type RunTaskStatus, type TrackedEvent } from "./run-task-status.js";

const SESSION = "s1";
const ref = { sessionId: SESSION, clientMessageId: "c1" };
const sessionActor = `session/${SESSION}`;
const runActor = `run/${SESSION}`;
const toolActor = "tool/s1.r1.call-1";

let sequence = 0;
/** A hand-built durable event at the next sequence. */
function event(type: string, payload: Record<string, unknown>, actor: string): TrackedEvent {
  sequence += 1;
  const envelope = {
    v: 1,
    id: `${actor}:ev:${sequence}`,
    type,
    payload,
    meta: { actor, seq: sequence, timestampMs: 1_000 * sequence },
  } as EventEnvelope;
  return { sequence, event: envelope };
}

function run(events: readonly TrackedEvent[]): RunTaskStatus {
  const tracker = new RunTaskTracker(ref);
  for (const tracked of events) tracker.observe(tracked);
  return tracker.status();
}

const accepted = (clientMessageId: string, runId?: string, queued?: true) =>
  event(
    "message.accepted",
    {
      messageId: `cm:${clientMessageId}`,
      type: "user.message",
      clientMessageId,
      ...(runId === undefined ? {} : { runId }),
      ...(queued === undefined ? {} : { queued }),
    },
    sessionActor,
  );
const started = (runId: string, clientMessageId: string) =>
  event("run.started", { runId, messageId: `cm:${clientMessageId}` }, sessionActor);
const completed = (runId: string, text: string) =>
  event("run.completed", { runId, text, usage: {} }, runActor);
const approvalRequested = (actor = toolActor, sessionId?: string) =>
  event(
    "tool.approval_requested",
    {
      toolCallId: "call-1",
      tool: "send_email",
      arguments: { to: "a@b.c" },
      runId: "r1",
      ...(sessionId === undefined ? {} : { sessionId }),
    },
    actor,
  );

describe("RunTaskTracker", () => {
  it("is working with no events, and before the message is admitted", () => {
    expect(run([])).toEqual({ state: "working", sequence: 0 });
    expect(run([accepted("other", "r0")])).toEqual({ state: "working", sequence: sequence });
  });

  it("finds the run from message.accepted and completes with its text", () => {
    const first = accepted("c1", "r1");
    const status = run([first, started("r1", "c1"), completed("r1", "the answer")]);
    expect(status).toEqual({
      state: "completed",
      runId: "r1",
      answer: "the answer",
      sequence,
      // The run.completed, the last event read here.
      endedSequence: sequence,
      createdAtMs: first.sequence * 1_000,
      updatedAtMs: sequence * 1_000,
    });
  });

  it("finds a queued message's run from run.started, ignoring the run before it", () => {
    const queued = accepted("c1", undefined, true);
    const status = run([
      accepted("c0", "r0"),
      queued,
      completed("r0", "earlier answer"),
      started("r1", "c1"),
    ]);
    expect(status).toEqual({
      state: "working",
      runId: "r1",
      sequence,
      createdAtMs: queued.sequence * 1_000,
      updatedAtMs: sequence * 1_000,
    });
    expect(
      run([
        accepted("c1", undefined, true),
        completed("r0", "earlier"),
        started("r1", "c1"),
        completed("r1", "mine"),
      ]),
    ).toMatchObject({ state: "completed", answer: "mine" });
  });

  it("fails on a message.rejected naming the message", () => {
    const rejected = event(
      "message.rejected",
      { messageId: "cm:c1", code: "session_closed", reason: "the session is closed" },
      sessionActor,
    );
    expect(run([rejected])).toEqual({
      state: "failed",
      error: { code: "session_closed", message: "the session is closed" },
      sequence,
      endedSequence: sequence,
      createdAtMs: sequence * 1_000,
      updatedAtMs: sequence * 1_000,
    });
  });

  it("reports a run failure and a cancellation with its partial text and reason", () => {
    expect(
      run([
        accepted("c1", "r1"),
        event("run.failed", { runId: "r1", code: "model_error", message: "boom" }, runActor),
      ]),
    ).toMatchObject({
      state: "failed",
      runId: "r1",
      error: { code: "model_error", message: "boom" },
    });
    expect(
      run([
        accepted("c1", "r1"),
        event(
          "run.cancelled",
          { runId: "r1", partialText: "half", reason: "user", usage: {} },
          runActor,
        ),
      ]),
    ).toMatchObject({
      state: "cancelled",
      answer: "half",
      error: { code: "cancelled", message: "user" },
    });
  });

  it("is input_required while an approval is open, working again once it is settled", () => {
    const asked = [accepted("c1", "r1"), approvalRequested()];
    expect(run(asked)).toMatchObject({
      state: "input_required",
      pending: {
        kind: "approval",
        toolCallId: "call-1",
        tool: "send_email",
        arguments: { to: "a@b.c" },
        sessionId: SESSION,
      },
    });
    const settled = event(
      "tool.approval_settled",
      { toolCallId: "call-1", decision: "approved" },
      toolActor,
    );
    expect(run([...asked, settled])).toMatchObject({ state: "working", runId: "r1", sequence });
    expect(run([...asked, settled]).pending).toBeUndefined();
  });

  it("names a subagent's session as the owner of its approval", () => {
    const status = run([accepted("c1", "r1"), approvalRequested("tool/sub-1.r9.call-1", "sub-1")]);
    expect(status.pending).toMatchObject({ kind: "approval", sessionId: "sub-1" });
  });

  it("is input_required for a question until it is answered; tool.started does not close it", () => {
    const questionActor = "tool/s1.r1.call-2";
    const asked = [
      accepted("c1", "r1"),
      event("tool.started", { toolCallId: "call-2", tool: "ask_user" }, questionActor),
      event(
        "question.asked",
        { questionId: "q1", runId: "r1", text: "Which city?", choices: ["Oslo", "Rome"] },
        questionActor,
      ),
    ];
    expect(run(asked)).toMatchObject({
      state: "input_required",
      pending: {
        kind: "question",
        questionId: "q1",
        text: "Which city?",
        choices: ["Oslo", "Rome"],
      },
    });
    const answered = event("question.answered", { questionId: "q1", text: "Oslo" }, questionActor);
    expect(run([...asked, answered]).state).toBe("working");
  });

  it("ignores approvals of earlier runs and closes open ones at the run's end", () => {
    const before = [accepted("c0", "r0"), approvalRequested()];
    expect(run([...before, accepted("c1", undefined, true)]).state).toBe("working");
    expect(run([accepted("c1", "r1"), approvalRequested(), completed("r1", "done")])).toMatchObject(
      {
        state: "completed",
        answer: "done",
      },
    );
  });

  it("keeps the sequence of the last durable event, not of a delta", () => {
    const tracker = new RunTaskTracker(ref);
    const first = accepted("c1", "r1");
    tracker.observe(first);
    const delta = {
      ...event("run.delta", { runId: "r1", attempt: 1, kind: "text", text: "h" }, runActor),
      deltaSequence: 7,
    };
    expect(tracker.observe({ ...delta, sequence: first.sequence }).sequence).toBe(first.sequence);
  });
});
