import { RELATED_TASK_META_KEY } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import type { PendingInput } from "@troupe/client/tasks";
import { decisionFrom, elicitationFor } from "./elicitation.js";

const approval: PendingInput = {
  kind: "approval",
  toolCallId: "call-1",
  tool: "send_email",
  arguments: { to: "ada@example.com" },
  sessionId: "s1",
};
const question: PendingInput = {
  kind: "question",
  questionId: "q1",
  text: "Which city?",
  choices: ["Oslo", "Rome"],
  sessionId: "s1",
};

describe("elicitations of approvals and questions", () => {
  it("ask an approval as a form with approve and reason, naming the task", () => {
    const params = elicitationFor(approval, "s1.c1");
    expect(params.message).toBe(
      'The agent wants to call send_email {"to":"ada@example.com"}. Approve this call?',
    );
    expect(params.requestedSchema.required).toEqual(["approve"]);
    expect(params.requestedSchema.properties["approve"]).toMatchObject({ type: "boolean" });
    expect(params._meta).toEqual({ [RELATED_TASK_META_KEY]: { taskId: "s1.c1" } });
  });

  it("cut long arguments", () => {
    const params = elicitationFor({ ...approval, arguments: { body: "x".repeat(1_000) } }, "t.c");
    expect(params.message.length).toBeLessThan(600);
    expect(params.message).toContain("…");
  });

  it("ask a question with its choices as an enum", () => {
    const params = elicitationFor(question, "s1.c1");
    expect(params.message).toBe("Which city?");
    expect(params.requestedSchema.properties["answer"]).toEqual({
      type: "string",
      title: "Answer",
      enum: ["Oslo", "Rome"],
    });
  });

  it("turn the user's response into a decision", () => {
    expect(decisionFrom(approval, { action: "accept", content: { approve: true } })).toEqual({
      kind: "approve",
    });
    expect(
      decisionFrom(approval, { action: "accept", content: { approve: false, reason: "no" } }),
    ).toEqual({ kind: "deny", reason: "no" });
    expect(decisionFrom(approval, { action: "accept", content: { approve: false } })).toEqual({
      kind: "deny",
    });
    expect(decisionFrom(approval, { action: "decline" })).toEqual({
      kind: "deny",
      reason: "declined by the MCP client's user",
    });
    expect(decisionFrom(question, { action: "accept", content: { answer: "Oslo" } })).toEqual({
      kind: "answer",
      text: "Oslo",
    });
  });

  it("settle nothing when dismissed or when the content does not fit", () => {
    expect(decisionFrom(approval, { action: "cancel" })).toBeUndefined();
    expect(
      decisionFrom(approval, { action: "accept", content: { approve: "yes" } }),
    ).toBeUndefined();
    expect(decisionFrom(question, { action: "decline" })).toBeUndefined();
    expect(decisionFrom(question, { action: "accept", content: {} })).toBeUndefined();
  });
});
