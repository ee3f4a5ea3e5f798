import type { EventEnvelope } from "@troupe/protocol";
import { describe, expect, it } from "vitest";
import {
  humanWaitKey,
  humanWaitOf,
  SessionProgress,
  settleCommand,
  type ObservedEvent,
} from "./session-progress.js";

const SESSION = "s-1";

/** A hand-built event; `pending` 0 (caught up) unless given. */
function event(
  type: string,
  payload: Record<string, unknown>,
  options: { actor?: string; pending?: number } = {},
): ObservedEvent {
  const envelope = {
    v: 1,
    id: `${type}:${Math.random()}`,
    type,
    payload,
    meta: { actor: options.actor ?? `session/${SESSION}`, seq: 1, timestampMs: 0 },
  } as EventEnvelope;
  return { pending: options.pending ?? 0, event: envelope };
}

const tool = "tool/s-1.r1.call-1";
const approvalRequested = (pending: number, actor = tool, sessionId?: string) =>
  event(
    "tool.approval_requested",
    {
      toolCallId: "call-1",
      tool: "send_email",
      arguments: {},
      runId: "r1",
      ...(sessionId === undefined ? {} : { sessionId }),
    },
    { actor, pending },
  );

/** Feeds every event; returns the stops in order (undefined where it goes on). */
function observeAll(progress: SessionProgress, events: readonly ObservedEvent[]) {
  return events.map((item) => progress.observe(item));
}

describe("SessionProgress (tail --until-idle)", () => {
  it("stops idle after session.idle once caught up, not while more is stored", () => {
    const stops = observeAll(new SessionProgress(SESSION), [
      event("run.started", { runId: "r1" }, { pending: 3 }),
      event("session.idle", { sessionId: SESSION }, { pending: 2 }),
      event("run.started", { runId: "r2" }, { pending: 1 }),
      event("session.idle", { sessionId: SESSION }),
    ]);
    expect(stops).toEqual([undefined, undefined, undefined, { stop: "idle" }]);
  });

  it("stops waiting on a human when the last stored event leaves an approval open", () => {
    const progress = new SessionProgress(SESSION);
    const stops = observeAll(progress, [
      event("run.started", { runId: "r1" }, { pending: 1 }),
      approvalRequested(0),
    ]);
    expect(stops[1]).toEqual({
      stop: "waiting_on_human",
      waits: [{ kind: "approval", toolCallId: "call-1", tool: "send_email", runId: "r1" }],
    });
    expect(settleCommand(SESSION, progress.openWaits()[0]!)).toBe("troupe approve s-1 call-1");
  });

  it("replaying an approval asked, settled and followed by idle stops idle at the end only", () => {
    const stops = observeAll(new SessionProgress(SESSION), [
      event("run.started", { runId: "r1" }, { pending: 5 }),
      approvalRequested(4),
      event(
        "tool.approval_settled",
        { toolCallId: "call-1", decision: "approved" },
        { actor: tool, pending: 3 },
      ),
      event(
        "tool.started",
        { toolCallId: "call-1", runId: "r1", tool: "send_email" },
        { actor: tool, pending: 2 },
      ),
      event("run.completed", { runId: "r1", text: "ok" }, { pending: 1 }),
      event("session.idle", { sessionId: SESSION }),
    ]);
    expect(stops).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      { stop: "idle" },
    ]);
  });

  it("an approval settled live (pending 0 at each step) goes on until idle", () => {
    const stops = observeAll(new SessionProgress(SESSION), [
      event("run.started", { runId: "r1" }),
      event("tool.approval_settled", { toolCallId: "call-1", decision: "denied" }, { actor: tool }),
      event("command.settled", { commandId: "c", command: "tool.deny", verdict: "applied" }),
      event("run.completed", { runId: "r1", text: "ok" }),
      event("session.idle", { sessionId: SESSION }),
    ]);
    // run.started alone is no reason to stop; the command's verdict mid-run is not idle.
    expect(stops).toEqual([undefined, undefined, undefined, undefined, { stop: "idle" }]);
  });

  it("an approval repeated after the run ended stops idle at its settlement, the last event stored", () => {
    const stops = observeAll(new SessionProgress(SESSION), [
      event("run.started", { runId: "r1" }, { pending: 5 }),
      event("session.idle", { sessionId: SESSION }, { pending: 4 }),
      event("message.accepted", { type: "tool.approve" }, { pending: 3 }),
      event(
        "command.settled",
        { commandId: "c", command: "tool.approve", verdict: "already_settled" },
        { pending: 1 },
      ),
      event(
        "tool.approval_settled",
        { toolCallId: "call-1", decision: "approved", alreadySettled: true },
        { actor: tool },
      ),
    ]);
    expect(stops).toEqual([undefined, undefined, undefined, undefined, { stop: "idle" }]);
  });

  it("a question stays open after its call's tool.started and closes with question.answered", () => {
    const progress = new SessionProgress(SESSION);
    progress.observe(event("run.started", { runId: "r1" }, { pending: 2 }));
    progress.observe(
      event(
        "tool.started",
        { toolCallId: "q-1", runId: "r1", tool: "ask_user" },
        { actor: tool, pending: 1 },
      ),
    );
    const asked = progress.observe(
      event(
        "question.asked",
        { questionId: "q-1", runId: "r1", text: "Which city?" },
        { actor: tool },
      ),
    );
    expect(asked).toEqual({
      stop: "waiting_on_human",
      waits: [{ kind: "question", questionId: "q-1", text: "Which city?", runId: "r1" }],
    });
    expect(settleCommand(SESSION, progress.openWaits()[0]!)).toBe("troupe answer s-1 q-1 <text>");
    expect(
      progress.observe(
        event("question.answered", { questionId: "q-1", text: "Oslo" }, { actor: tool }),
      ),
    ).toBeUndefined();
    expect(progress.openWaits()).toEqual([]);
  });

  it("a subagent's approval (same call id as the parent's, another actor) is its own wait", () => {
    const progress = new SessionProgress(SESSION);
    const subTool = "tool/sub-1.r9.call-1";
    progress.observe(event("run.started", { runId: "r1" }, { pending: 3 }));
    progress.observe(approvalRequested(2));
    progress.observe(approvalRequested(1, subTool, "sub-1"));
    const stop = progress.observe(
      event(
        "tool.approval_settled",
        { toolCallId: "call-1", decision: "approved" },
        { actor: tool },
      ),
    );
    expect(stop).toEqual({
      stop: "waiting_on_human",
      waits: [
        {
          kind: "approval",
          toolCallId: "call-1",
          tool: "send_email",
          runId: "r1",
          subagentSessionId: "sub-1",
        },
      ],
    });
    expect(settleCommand(SESSION, progress.openWaits()[0]!)).toBe(
      "troupe approve s-1 call-1 --subagent sub-1",
    );
  });

  it("the end of a run closes its open waits; a delta never says the history is read", () => {
    const progress = new SessionProgress(SESSION);
    progress.observe(event("run.started", { runId: "r1" }, { pending: 2 }));
    progress.observe(approvalRequested(1));
    const delta = { ...event("run.delta", { runId: "r1", text: "x" }), deltaSequence: 4 };
    expect(progress.observe(delta)).toBeUndefined();
    expect(
      progress.observe(event("run.cancelled", { runId: "r1" }, { pending: 1 })),
    ).toBeUndefined();
    expect(progress.openWaits()).toEqual([]);
  });
});

describe("humanWaitOf and humanWaitKey (chat resumes a waiting session)", () => {
  it("turns a request into the wait SessionProgress reports, keyed alike", () => {
    const progress = new SessionProgress(SESSION);
    const request = approvalRequested(0);
    const stop = observeAll(progress, [
      event("run.started", { runId: "r1" }, { pending: 1 }),
      request,
    ])[1];
    const wait = humanWaitOf(request.event, SESSION);
    expect(wait).toEqual({
      kind: "approval",
      toolCallId: "call-1",
      tool: "send_email",
      runId: "r1",
    });
    expect(stop).toEqual({ stop: "waiting_on_human", waits: [wait] });
    expect(humanWaitKey(wait!)).toBe("approval  call-1");
    const sub = humanWaitOf(approvalRequested(0, "tool/sub-1.r1.call-1", "sub-1").event, SESSION);
    expect(sub).toMatchObject({ subagentSessionId: "sub-1" });
    expect(humanWaitKey(sub!)).toBe("approval sub-1 call-1");
    const asked = humanWaitOf(
      event("question.asked", { questionId: "q-1", text: "Which city?", runId: "r1" }).event,
      SESSION,
    );
    expect(asked).toEqual({
      kind: "question",
      questionId: "q-1",
      text: "Which city?",
      runId: "r1",
    });
    expect(humanWaitKey(asked!)).toBe("question  q-1");
    expect(humanWaitOf(event("run.started", { runId: "r1" }).event, SESSION)).toBeUndefined();
  });
});
