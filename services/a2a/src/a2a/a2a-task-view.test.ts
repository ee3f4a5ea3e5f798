import { TaskState } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { a2aTask, a2aTaskState } from "./a2a-task-view.js";

const ref = { sessionId: "s1", clientMessageId: "c1", taskId: "s1.c1" };
const at = "2026-12-01T10:00:00.000Z";

describe("a2aTask", () => {
  it("maps each run task state to the A2A task state", () => {
    expect(a2aTaskState({ state: "working", sequence: 0 })).toBe(TaskState.TASK_STATE_SUBMITTED);
    expect(a2aTaskState({ state: "working", runId: "r1", sequence: 3 })).toBe(
      TaskState.TASK_STATE_WORKING,
    );
    expect(a2aTaskState({ state: "completed", runId: "r1", answer: "", sequence: 9 })).toBe(
      TaskState.TASK_STATE_COMPLETED,
    );
    expect(a2aTaskState({ state: "failed", sequence: 2 })).toBe(TaskState.TASK_STATE_FAILED);
    expect(a2aTaskState({ state: "cancelled", runId: "r1", sequence: 5 })).toBe(
      TaskState.TASK_STATE_CANCELED,
    );
  });

  it("gives a completed run's answer as the artifact and names the run in metadata", () => {
    const task = a2aTask(ref, { state: "completed", runId: "r1", answer: "Hi.", sequence: 7 }, at);
    expect(task).toMatchObject({
      id: "s1.c1",
      contextId: "s1",
      status: { state: TaskState.TASK_STATE_COMPLETED, message: undefined, timestamp: at },
      artifacts: [{ artifactId: "answer", parts: [{ content: { $case: "text", value: "Hi." } }] }],
      metadata: { troupe: { sessionId: "s1", clientMessageId: "c1", runId: "r1" } },
    });
  });

  it("asks for an approval with a text and the call's details as data", () => {
    const task = a2aTask(
      ref,
      {
        state: "input_required",
        runId: "r1",
        pending: {
          kind: "approval",
          toolCallId: "call-1",
          tool: "send_email",
          arguments: { to: "ada@example.com" },
          sessionId: "s1",
        },
        sequence: 4,
      },
      at,
    );
    expect(task.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(task.status?.message?.parts.map((part) => part.content)).toEqual([
      {
        $case: "text",
        value:
          'Approve the tool call send_email with {"to":"ada@example.com"}? Reply "approve" or "deny" ' +
          '(or a data part {"approve": true|false}).',
      },
      {
        $case: "data",
        value: {
          kind: "approval",
          toolCallId: "call-1",
          tool: "send_email",
          arguments: { to: "ada@example.com" },
        },
      },
    ]);
    expect(task.status?.message?.messageId).toBe("s1.c1.approval-call-1");
  });

  it("asks a question with its choices, and says why a run failed", () => {
    const asked = a2aTask(
      ref,
      {
        state: "input_required",
        pending: {
          kind: "question",
          questionId: "q1",
          text: "Which city?",
          choices: ["Paris", "Rome"],
          sessionId: "sub-1",
        },
        sequence: 4,
      },
      at,
    );
    expect(asked.status?.message?.parts[0]?.content).toEqual({
      $case: "text",
      value: "Which city? (choices: Paris, Rome)",
    });
    const failed = a2aTask(
      ref,
      { state: "failed", error: { code: "model_error", message: "overloaded" }, sequence: 3 },
      at,
    );
    expect(failed.status?.message?.parts[0]?.content).toEqual({
      $case: "text",
      value: "model_error: overloaded",
    });
    expect(failed.artifacts).toEqual([]);
  });
});
