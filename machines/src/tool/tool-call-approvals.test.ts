import { describe, expect, it } from "vitest";
import { emitEvent, requestEffect, sendMessage } from "@troupe/protocol";
import { commandSettled } from "../host-actions/command-verdict.js";
import { inboxEvent, timerArmed, timerCancelled } from "../testing/inbox.js";
import {
  newToolCallActor,
  toolExecuted,
  toolStart,
  toolStep,
  toolSteps,
} from "../testing/tool-kit.js";
import type { ToolCallEvent } from "./tool-call-events.js";
import { APPROVAL_TIMER_ID } from "./tool-call-context.js";
import {
  APPROVAL_TIMED_OUT_CONTENT,
  INVALID_QUESTION_CONTENT,
  deniedByPolicyContent,
  deniedByUserContent,
} from "./tool-call-steps.js";

const about = { toolCallId: "call_1", runId: "r1", tool: "charge" };
const TIMER = APPROVAL_TIMER_ID;
const finished = (payload: Record<string, unknown>) =>
  sendMessage({
    to: "run/s1",
    type: "tool.finished",
    payload: { runId: "r1", toolCallId: "call_1", ...payload },
  });
const denied = (message: string) =>
  emitEvent("tool.failed", {
    ...about,
    error: { code: "denied", message, retryable: false },
  });
const executeEffect = requestEffect({
  effect: "tool.execute",
  effectId: "execute",
  input: {
    sessionId: "s1",
    runId: "r1",
    toolCallId: "call_1",
    toolName: "charge",
    input: '{"amount":5}',
    effectClass: "non_idempotent_write",
    idempotencyKey: "s1/r1/call_1",
  },
});
const chargeStart = (extra: Parameters<typeof toolStart>[0] = {}) =>
  toolStart({
    toolName: "charge",
    input: '{"amount":5}',
    effectClass: "non_idempotent_write",
    ...extra,
  });
const approveMsg = (toolCallId = "call_1", id = "m-approve") =>
  inboxEvent("tool.approve", { toolCallId }, id);
const denyMsg = (reason?: string, id = "m-deny") =>
  inboxEvent(
    "tool.deny",
    { toolCallId: "call_1", ...(reason === undefined ? {} : { reason }) },
    id,
  );
const timeout = { type: TIMER } as unknown as ToolCallEvent;
/** The verdict on command `messageId` of `type` (a forwarded one names `commandId`). */
const verdict = (
  type: string,
  messageId: string,
  outcome: Parameters<typeof commandSettled>[1],
  details: Parameters<typeof commandSettled>[2] = {},
) => commandSettled({ type, messageId }, outcome, details);
const waiting = (extra: Parameters<typeof toolStart>[0] = {}) =>
  toolStep(newToolCallActor(), chargeStart({ decision: "ask", ...extra }));

describe("tool call: policy decisions", () => {
  it("allow (or no decision) runs the call at once", () => {
    for (const start of [chargeStart(), chargeStart({ decision: "allow" })]) {
      const { snapshot, actions } = toolStep(newToolCallActor(), start);
      expect(snapshot.value).toBe("executing");
      expect(actions).toEqual([
        emitEvent("tool.started", {
          ...about,
          effectClass: "non_idempotent_write",
          arguments: { amount: 5 },
        }),
        executeEffect,
      ]);
    }
  });

  it("deny: never runs; tool.failed (denied) and tool.finished failed", () => {
    const { snapshot, actions } = toolStep(newToolCallActor(), chargeStart({ decision: "deny" }));
    expect(snapshot.value).toBe("done");
    expect(snapshot.context.status).toBe("failed");
    const content = deniedByPolicyContent("charge");
    expect(actions).toEqual([denied(content), finished({ status: "failed", content })]);
  });

  it("ask: tool.approval_requested with the parsed arguments, and a durable timer of 24 h", () => {
    const { snapshot, actions } = waiting();
    expect(snapshot.value).toBe("awaitingApproval");
    expect(actions).toEqual([
      emitEvent("tool.approval_requested", {
        toolCallId: "call_1",
        tool: "charge",
        arguments: { amount: 5 },
        runId: "r1",
        sessionId: "s1",
      }),
      timerArmed(TIMER, 86_400_000),
    ]);
  });

  it("ask: the timeout comes from the call; arguments that are not JSON are shown as text", () => {
    const { actions } = waiting({ approvalTimeoutMs: 1500, input: "not json" });
    expect(actions).toEqual([
      emitEvent("tool.approval_requested", {
        toolCallId: "call_1",
        tool: "charge",
        arguments: "not json",
        runId: "r1",
        sessionId: "s1",
      }),
      timerArmed(TIMER, 1500),
    ]);
  });
});

describe("tool call: approvals", () => {
  it("tool.approve settles approved, then the call runs and reports as usual", () => {
    const approved = toolStep(waiting().snapshot, approveMsg());
    expect(approved.snapshot.value).toBe("executing");
    expect(approved.snapshot.context.approval).toBe("approved");
    expect(approved.actions).toEqual([
      timerCancelled(TIMER),
      verdict("tool.approve", "m-approve", "applied", {
        toolCallId: "call_1",
        runId: "r1",
        decision: "approved",
      }),
      emitEvent("tool.approval_settled", { toolCallId: "call_1", decision: "approved" }),
      emitEvent("tool.started", {
        ...about,
        effectClass: "non_idempotent_write",
        arguments: { amount: 5 },
      }),
      executeEffect,
    ]);
    const done = toolStep(approved.snapshot, toolExecuted({ status: "succeeded", content: "ok" }));
    expect(done.actions).toEqual([
      emitEvent("tool.completed", { ...about, content: "ok" }),
      finished({ status: "succeeded", content: "ok" }),
    ]);
  });

  it("tool.deny settles denied; the call never runs and the model reads the reason", () => {
    const { snapshot, actions } = toolStep(waiting().snapshot, denyMsg("too expensive"));
    expect(snapshot.value).toBe("done");
    expect(snapshot.context.approval).toBe("denied");
    const content = deniedByUserContent("too expensive");
    expect(content).toContain("too expensive");
    expect(actions).toEqual([
      timerCancelled(TIMER),
      verdict("tool.deny", "m-deny", "applied", {
        toolCallId: "call_1",
        runId: "r1",
        decision: "denied",
      }),
      emitEvent("tool.approval_settled", { toolCallId: "call_1", decision: "denied" }),
      denied(content),
      finished({ status: "failed", content }),
    ]);
  });

  it("the timeout settles timed_out and counts as a denial", () => {
    const { snapshot, actions } = toolStep(waiting().snapshot, timeout);
    expect(snapshot.value).toBe("done");
    expect(snapshot.context.approval).toBe("timed_out");
    // xstate cancels the fired timer on leaving the state; the host ignores that.
    expect(actions).toEqual([
      timerCancelled(TIMER),
      emitEvent("tool.approval_settled", { toolCallId: "call_1", decision: "timed_out" }),
      denied(APPROVAL_TIMED_OUT_CONTENT),
      finished({ status: "failed", content: APPROVAL_TIMED_OUT_CONTENT }),
    ]);
  });

  it("the first settlement wins: later approvals and denials get alreadySettled with it, nothing else", () => {
    const afterDeny = toolSteps(waiting().snapshot, denyMsg());
    for (const late of [approveMsg("call_1", "m2"), denyMsg(undefined, "m3")]) {
      const { snapshot, actions } = toolStep(afterDeny.snapshot, late);
      expect(snapshot.value).toBe("done");
      expect(snapshot.context).toEqual(afterDeny.snapshot.context);
      expect(actions).toEqual([
        verdict(late.type, late.messageId, "already_settled", {
          toolCallId: "call_1",
          reason: "tool call call_1 was denied already",
          runId: "r1",
          decision: "denied",
        }),
        emitEvent("tool.approval_settled", {
          toolCallId: "call_1",
          decision: "denied",
          alreadySettled: true,
        }),
      ]);
    }
    const approved = toolSteps(waiting().snapshot, approveMsg());
    const whileRunning = toolStep(approved.snapshot, denyMsg());
    expect(whileRunning.snapshot.value).toBe("executing");
    expect(whileRunning.actions).toEqual([
      verdict("tool.deny", "m-deny", "already_settled", {
        toolCallId: "call_1",
        reason: "tool call call_1 was approved already",
        runId: "r1",
        decision: "approved",
      }),
      emitEvent("tool.approval_settled", {
        toolCallId: "call_1",
        decision: "approved",
        alreadySettled: true,
      }),
    ]);
    const timedOut = toolSteps(waiting().snapshot, timeout, approveMsg());
    expect(timedOut.actions).toEqual([
      verdict("tool.approve", "m-approve", "already_settled", {
        toolCallId: "call_1",
        reason: "tool call call_1 was timed out already",
        runId: "r1",
        decision: "timed_out",
      }),
      emitEvent("tool.approval_settled", {
        toolCallId: "call_1",
        decision: "timed_out",
        alreadySettled: true,
      }),
    ]);
  });

  it("settlements for another call, or for a call that never asked, change nothing and say so", () => {
    const before = waiting().snapshot;
    const other = toolStep(before, approveMsg("call_2"));
    expect(other.snapshot.value).toBe("awaitingApproval");
    expect(other.snapshot.context).toEqual(before.context);
    const unknown = verdict("tool.approve", "m-approve", "unknown_id", {
      toolCallId: "call_2",
      reason: "no tool call call_2 in this session",
    });
    expect(other.actions).toEqual([unknown]);
    const neverAsked = verdict("tool.approve", "m-approve", "nothing_to_act_on", {
      toolCallId: "call_1",
      reason: "tool call call_1 did not ask for approval",
      runId: "r1",
    });
    const allowed = toolStep(newToolCallActor(), chargeStart()).snapshot;
    expect(toolStep(allowed, approveMsg()).actions).toEqual([neverAsked]);
    const policyDenied = toolStep(newToolCallActor(), chargeStart({ decision: "deny" })).snapshot;
    expect(toolStep(policyDenied, approveMsg()).actions).toEqual([neverAsked]);
    // An actor no tool.start reached: unknown, and it stays as it started.
    const fresh = newToolCallActor();
    const bogus = toolStep(fresh, approveMsg());
    expect(bogus.actions).toEqual([
      verdict("tool.approve", "m-approve", "unknown_id", {
        toolCallId: "call_1",
        reason: "no tool call call_1 in this session",
      }),
    ]);
    expect(bogus.snapshot.value).toBe("idle");
    expect(bogus.snapshot.context).toEqual(fresh.context);
  });

  it("a forwarded command is answered with the id of the client's command", () => {
    const forwarded = inboxEvent(
      "tool.approve",
      { toolCallId: "call_1", commandId: "client-cmd-1" },
      "session/s1:out:4.1",
    );
    const { actions } = toolStep(waiting().snapshot, forwarded);
    expect(actions).toContainEqual(
      emitEvent("command.settled", {
        commandId: "client-cmd-1",
        command: "tool.approve",
        verdict: "applied",
        toolCallId: "call_1",
        runId: "r1",
        decision: "approved",
      }),
    );
  });

  it("tool.cancel while waiting ends the call without answering the run and stops the timer", () => {
    const cancel = inboxEvent("tool.cancel", { runId: "r1", toolCallId: "call_1" }, "c1");
    const { snapshot, actions } = toolStep(waiting().snapshot, cancel);
    expect(snapshot.value).toBe("done");
    expect(actions).toEqual([timerCancelled(TIMER)]);
    expect(toolStep(snapshot, approveMsg()).actions).toEqual([
      verdict("tool.approve", "m-approve", "nothing_to_act_on", {
        toolCallId: "call_1",
        reason: "tool call call_1 did not ask for approval",
        runId: "r1",
      }),
    ]);
  });
});

describe("tool call: ask_user", () => {
  const ask = (input = '{"question":"Which city?"}') =>
    toolStart({ toolName: "ask_user", input, effectClass: "read" });
  const answer = (questionId = "call_1") =>
    inboxEvent("question.answer", { questionId, text: "Lisbon" }, "m-answer");
  const aboutAsk = { toolCallId: "call_1", runId: "r1", tool: "ask_user" };

  it("asks the question (question.asked, questionId = call id) and waits without an effect", () => {
    const { snapshot, actions } = toolStep(newToolCallActor(), ask());
    expect(snapshot.value).toBe("awaitingAnswer");
    expect(actions).toEqual([
      emitEvent("tool.started", {
        ...aboutAsk,
        effectClass: "read",
        arguments: { question: "Which city?" },
      }),
      emitEvent("question.asked", {
        questionId: "call_1",
        runId: "r1",
        text: "Which city?",
        sessionId: "s1",
      }),
    ]);
  });

  it("question.answer: question.answered, and the call succeeds with the answer as content", () => {
    const { snapshot, actions } = toolSteps(newToolCallActor(), ask(), answer());
    expect(snapshot.value).toBe("done");
    expect(snapshot.context.status).toBe("succeeded");
    expect(actions).toEqual([
      verdict("question.answer", "m-answer", "applied", { questionId: "call_1", runId: "r1" }),
      emitEvent("question.answered", { questionId: "call_1", text: "Lisbon", runId: "r1" }),
      emitEvent("tool.completed", { ...aboutAsk, content: "Lisbon" }),
      finished({ status: "succeeded", content: "Lisbon" }),
    ]);
    expect(toolStep(snapshot, answer()).actions).toEqual([
      verdict("question.answer", "m-answer", "already_settled", {
        questionId: "call_1",
        reason: "question call_1 was settled already",
        runId: "r1",
      }),
    ]);
  });

  it("an answer to another question changes nothing and is told the id is unknown", () => {
    const { snapshot, actions } = toolSteps(newToolCallActor(), ask(), answer("call_9"));
    expect(snapshot.value).toBe("awaitingAnswer");
    expect(actions).toEqual([
      verdict("question.answer", "m-answer", "unknown_id", {
        questionId: "call_9",
        reason: "no question call_9 in this session",
      }),
    ]);
  });

  it("without a question: invalid_arguments at once", () => {
    for (const input of ["", "{}", '{"question":""}', "nope"]) {
      const { snapshot, actions } = toolStep(newToolCallActor(), ask(input));
      expect(snapshot.value).toBe("done");
      expect(actions).toEqual([
        emitEvent("tool.failed", {
          ...aboutAsk,
          error: { code: "invalid_arguments", message: INVALID_QUESTION_CONTENT, retryable: false },
        }),
        finished({ status: "invalid_arguments", content: INVALID_QUESTION_CONTENT }),
      ]);
    }
  });

  it("tool.cancel while waiting for the answer ends the call without answering the run", () => {
    const cancel = inboxEvent("tool.cancel", { runId: "r1", toolCallId: "call_1" }, "c1");
    const { snapshot, actions } = toolSteps(newToolCallActor(), ask(), cancel);
    expect(snapshot.value).toBe("done");
    expect(actions).toEqual([]);
  });
});
