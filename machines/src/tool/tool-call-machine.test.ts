import { toolActorId, cancelEffect, emitEvent, requestEffect, sendMessage } from "@troupe/protocol";
import { describe, expect, it } from "vitest";
import { inboxEvent } from "../testing/inbox.js";
import {
  newToolCallActor,
  toolExecuteFailed,
  toolExecuted,
  toolStart,
  toolStep,
  toolSteps,
} from "../testing/tool-kit.js";

const about = { toolCallId: "call_1", runId: "r1", tool: "get_weather" };
const finished = (payload: Record<string, unknown>) =>
  sendMessage({
    to: "run/s1",
    type: "tool.finished",
    payload: { runId: "r1", toolCallId: "call_1", ...payload },
  });
const executing = () => toolStep(newToolCallActor(), toolStart()).snapshot;
const cancel = (payload = { runId: "r1", toolCallId: "call_1" }) =>
  inboxEvent("tool.cancel", payload, "run/s1:out:9.0");

describe("tool call: a call that runs", () => {
  it("tool.start publishes tool.started and requests tool.execute with the idempotency key", () => {
    const { snapshot, actions } = toolStep(
      newToolCallActor(),
      toolStart({ effectClass: "non_idempotent_write", agent: "assistant" }),
    );
    expect(snapshot.value).toBe("executing");
    expect(actions).toEqual([
      emitEvent("tool.started", {
        ...about,
        effectClass: "non_idempotent_write",
        arguments: { city: "Lisbon" },
      }),
      requestEffect({
        effect: "tool.execute",
        effectId: "execute",
        input: {
          sessionId: "s1",
          runId: "r1",
          toolCallId: "call_1",
          toolName: "get_weather",
          input: '{"city":"Lisbon"}',
          effectClass: "non_idempotent_write",
          agent: "assistant",
          idempotencyKey: "s1/r1/call_1",
        },
      }),
    ]);
    expect(snapshot.context).toEqual({
      actorId: toolActorId("s1", "r1", "call_1"),
      sessionId: "s1",
      call: {
        runId: "r1",
        toolCallId: "call_1",
        toolName: "get_weather",
        input: '{"city":"Lisbon"}',
        effectClass: "non_idempotent_write",
        agent: "assistant",
      },
      cancelRequested: false,
    });
  });

  it("succeeded: tool.completed with the content, tool.finished to the run", () => {
    const { snapshot, actions } = toolStep(
      executing(),
      toolExecuted({ status: "succeeded", content: '{"celsius":19}', truncated: false }),
    );
    expect(snapshot.value).toBe("done");
    expect(snapshot.context.status).toBe("succeeded");
    expect(actions).toEqual([
      emitEvent("tool.completed", { ...about, content: '{"celsius":19}', truncated: false }),
      finished({ status: "succeeded", content: '{"celsius":19}', truncated: false }),
    ]);
  });

  it("failed: tool.failed with code tool_failed, tool.finished failed", () => {
    const { snapshot, actions } = toolStep(
      executing(),
      toolExecuted({ status: "failed", content: "Error: city not found" }),
    );
    expect(snapshot.value).toBe("done");
    expect(actions).toEqual([
      emitEvent("tool.failed", {
        ...about,
        error: { code: "tool_failed", message: "Error: city not found", retryable: false },
      }),
      finished({ status: "failed", content: "Error: city not found" }),
    ]);
  });

  it("invalid_arguments: tool.failed with code invalid_arguments, tool.finished invalid_arguments", () => {
    const { actions } = toolStep(
      executing(),
      toolExecuted({ status: "invalid_arguments", content: "city: Required" }),
    );
    expect(actions).toEqual([
      emitEvent("tool.failed", {
        ...about,
        error: { code: "invalid_arguments", message: "city: Required", retryable: false },
      }),
      finished({ status: "invalid_arguments", content: "city: Required" }),
    ]);
  });

  it("outcome_unknown: tool.outcome_unknown with the content as reason, tool.finished outcome_unknown", () => {
    const content = "The call may have run before the host stopped; it was not repeated.";
    const { actions } = toolStep(executing(), toolExecuted({ status: "outcome_unknown", content }));
    expect(actions).toEqual([
      emitEvent("tool.outcome_unknown", { ...about, reason: content }),
      finished({ status: "outcome_unknown", content }),
    ]);
  });

  it("a crashed handler (effect.failed) counts as failed with the error's message", () => {
    const { snapshot, actions } = toolStep(
      executing(),
      toolExecuteFailed("internal", "idempotency record store unreachable"),
    );
    expect(snapshot.value).toBe("done");
    expect(snapshot.context.status).toBe("failed");
    expect(actions).toEqual([
      emitEvent("tool.failed", {
        ...about,
        error: {
          code: "internal",
          message: "idempotency record store unreachable",
          retryable: false,
        },
      }),
      finished({ status: "failed", content: "idempotency record store unreachable" }),
    ]);
  });

  it("a malformed tool.execute output counts as failed", () => {
    const { actions } = toolStep(executing(), toolExecuted({ status: "ok", content: 1 }));
    const content =
      "tool.execute returned a malformed result (expected { status, content, truncated? })";
    expect(actions).toEqual([
      emitEvent("tool.failed", {
        ...about,
        error: { code: "invalid_tool_output", message: content, retryable: false },
      }),
      finished({ status: "failed", content }),
    ]);
  });

  it("results of other effects are ignored", () => {
    const before = executing();
    const other = toolStep(before, {
      type: "effect.completed",
      effectId: "other",
      effect: "tool.execute",
      output: { status: "succeeded", content: "x" },
    });
    expect(other.actions).toEqual([]);
    expect(other.snapshot.value).toBe("executing");
  });
});

describe("tool call: duplicates and strays", () => {
  it("a repeated tool.start is ignored while executing and once done", () => {
    const running = toolStep(executing(), toolStart());
    expect(running.actions).toEqual([]);
    expect(running.snapshot.value).toBe("executing");
    const done = toolStep(
      running.snapshot,
      toolExecuted({ status: "succeeded", content: "ok" }),
    ).snapshot;
    const again = toolSteps(
      done,
      toolStart(),
      cancel(),
      toolExecuted({ status: "failed", content: "x" }),
    );
    expect(again.actions).toEqual([]);
    expect(again.snapshot.value).toBe("done");
    expect(again.snapshot.context).toEqual(done.context);
  });

  it("a tool.start for another call (its ids do not hash to this actor) is ignored", () => {
    const { snapshot, actions } = toolStep(newToolCallActor(), toolStart({ toolCallId: "call_2" }));
    expect(actions).toEqual([]);
    expect(snapshot.value).toBe("idle");
  });
});

describe("tool call: cancellation", () => {
  it("while executing: aborts the effect, reports how it ended as an event, but does not answer the run", () => {
    const cancelling = toolStep(executing(), cancel());
    expect(cancelling.snapshot.value).toBe("executing");
    expect(cancelling.snapshot.context.cancelRequested).toBe(true);
    expect(cancelling.actions).toEqual([cancelEffect({ effectId: "execute" })]);

    expect(toolStep(cancelling.snapshot, cancel()).actions).toEqual([]);

    const ended = toolStep(cancelling.snapshot, toolExecuteFailed("cancelled", "effect cancelled"));
    expect(ended.snapshot.value).toBe("done");
    expect(ended.actions).toEqual([
      emitEvent("tool.failed", {
        ...about,
        error: { code: "cancelled", message: "effect cancelled", retryable: false },
      }),
    ]);
  });

  it("a tool.cancel for another call is ignored", () => {
    const { actions, snapshot } = toolStep(
      executing(),
      cancel({ runId: "r1", toolCallId: "call_9" }),
    );
    expect(actions).toEqual([]);
    expect(snapshot.context.cancelRequested).toBe(false);
  });

  it("before tool.start: the call never runs, a later tool.start is ignored", () => {
    const cancelled = toolStep(newToolCallActor(), cancel());
    expect(cancelled.snapshot.value).toBe("done");
    expect(cancelled.actions).toEqual([]);
    const late = toolStep(cancelled.snapshot, toolStart());
    expect(late.actions).toEqual([]);
    expect(late.snapshot.value).toBe("done");
  });
});
