import type { SessionEvent } from "@troupe/client";
import { describe, expect, it } from "vitest";
import { SessionRecord } from "./session-record.js";

let sequence = 0;
const at = (type: string, actor: string, payload: Record<string, unknown>): SessionEvent =>
  ({
    sequence: ++sequence,
    subject: `troupe.session.s1.events.${type}`,
    pending: 0,
    event: {
      v: 1,
      id: `e${sequence}`,
      type,
      payload,
      meta: { actor, seq: sequence, timestampMs: 1_000 * sequence },
    },
  }) as unknown as SessionEvent;

describe("SessionRecord", () => {
  it("is running from the session's run.started to its run actor's end, then idle; a subagent's run does not count", () => {
    sequence = 0;
    const record = new SessionRecord("s1");
    record.observe(at("session.created", "session/s1", { sessionId: "s1", agent: "demo" }));
    const started = at("run.started", "session/s1", { runId: "r1" });
    record.observe(started);
    expect(record.summary()).toMatchObject({
      state: "running",
      agent: "demo",
      lastRunId: "r1",
      runInProgress: { runId: "r1", sequence: started.sequence },
    });
    record.observe(at("run.started", "session/sub-1", { runId: "r1" }));
    record.observe(at("run.completed", "run/sub-1", { runId: "r1", text: "", usage: {} }));
    expect(record.summary().state).toBe("running");
    record.observe(at("run.completed", "run/s1", { runId: "r1", text: "", usage: {} }));
    expect(record.summary()).toMatchObject({ state: "idle", lastRunId: "r1", lastSequence: 5 });
    expect(record.summary().runInProgress).toBeUndefined();
    expect(record.summary().lastEventAt).toBe(new Date(5_000).toISOString());
    record.observe(at("session.closed", "session/s1", { sessionId: "s1", lastRunId: "r1" }));
    expect(record.summary().state).toBe("closed");
  });

  it("keeps open approvals and questions, its own and a subagent's, with their sequences, until they close", () => {
    sequence = 0;
    const record = new SessionRecord("s1");
    record.observe(at("run.started", "session/s1", { runId: "r1" }));
    const asked = at("tool.approval_requested", "tool/t1", {
      toolCallId: "c1",
      tool: "send_email",
      arguments: { to: "ada" },
      runId: "r1",
    });
    record.observe(asked);
    const question = at("question.asked", "tool/t2", {
      questionId: "q1",
      runId: "r1",
      text: "Which city?",
      choices: ["Paris"],
      sessionId: "sub-1",
    });
    record.observe(question);
    expect(record.approvals()).toEqual([
      {
        sessionId: "s1",
        ownerSessionId: "s1",
        toolCallId: "c1",
        tool: "send_email",
        arguments: { to: "ada" },
        runId: "r1",
        sequence: asked.sequence,
        requestedAt: new Date(asked.sequence * 1_000).toISOString(),
      },
    ]);
    expect(record.questions()).toEqual([
      expect.objectContaining({
        ownerSessionId: "sub-1",
        questionId: "q1",
        choices: ["Paris"],
        sequence: question.sequence,
      }),
    ]);
    expect(record.summary()).toMatchObject({ pendingApprovals: 1, openQuestions: 1 });
    expect(record.openWaits).toBe(2);
    record.observe(
      at("tool.approval_settled", "tool/t1", { toolCallId: "c1", decision: "approved" }),
    );
    expect(record.approvals()).toEqual([]);
    record.observe(at("session.idle", "session/s1", { sessionId: "s1", lastRunId: "r1" }));
    expect(record.questions()).toEqual([]);
    expect(record.openWaits).toBe(0);
  });

  it("ignores transient events read from the deltas stream", () => {
    sequence = 0;
    const record = new SessionRecord("s1");
    record.observe({ ...at("run.delta", "run/s1", { runId: "r1" }), deltaSequence: 9 });
    expect(record.lastSequence).toBe(0);
  });
});
