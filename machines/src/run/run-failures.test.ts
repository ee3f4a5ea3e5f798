import { describe, expect, it } from "vitest";
import { appendEntry, cancelEffect, emitEvent, requestEffect, sendMessage } from "@troupe/protocol";
import { inboxEvent, timerArmed, timerCancelled } from "../testing/inbox.js";
import {
  modelCallCompleted,
  modelCallFailed,
  modelOutput,
  newRunActor,
  runStart,
  runStep,
  runSteps,
  timerFired,
} from "../testing/run-kit.js";

const BACKOFF_TIMER = "xstate.after.retryDelay.run.backoff";
const CANCEL_TIMER = "xstate.after.cancelTimeout.run.cancelling";
const finished = (outcome: string, transcriptLength = 1, steersApplied = 0) =>
  sendMessage({
    to: "session/s1",
    type: "run.finished",
    payload: { runId: "r1", outcome, transcriptLength, steersApplied },
  });
const cancel = (payload: { runId?: string; reason?: string } = {}) =>
  inboxEvent("run.cancel", payload, "session/s1:out:9.0");
const calling = () => runStep(newRunActor(), runStart()).snapshot;

describe("run: model call failures", () => {
  it("retries a retryable error after 500 ms, then 1 000 ms, then fails on the third try", () => {
    const firstFailure = runStep(calling(), modelCallFailed("r1.m1.a1", true));
    expect(firstFailure.snapshot.value).toBe("backoff");
    expect(firstFailure.actions).toEqual([timerArmed(BACKOFF_TIMER, 500)]);

    const second = runStep(firstFailure.snapshot, timerFired(BACKOFF_TIMER));
    expect(second.snapshot.value).toBe("calling");
    // xstate cancels the fired timer on leaving the state; the host ignores that.
    expect(second.actions).toEqual([
      timerCancelled(BACKOFF_TIMER),
      requestEffect({
        effect: "model.call",
        effectId: "r1.m1.a2",
        input: {
          sessionId: "s1",
          runId: "r1",
          transcriptLength: 1,
          modelCallIndex: 1,
          retry: 2,
          withoutTools: false,
        },
      }),
    ]);
    const secondFailure = runStep(second.snapshot, modelCallFailed("r1.m1.a2", true));
    expect(secondFailure.actions).toEqual([timerArmed(BACKOFF_TIMER, 1000)]);

    const third = runStep(secondFailure.snapshot, timerFired(BACKOFF_TIMER));
    const failed = runStep(third.snapshot, modelCallFailed("r1.m1.a3", true));
    expect(failed.snapshot.value).toBe("idle");
    expect(failed.actions).toEqual([
      emitEvent("run.failed", {
        runId: "r1",
        code: "rate_limited",
        message: "rate_limited from the provider",
        transcriptLength: 1,
      }),
      finished("failed"),
    ]);
  });

  it("a non-retryable error fails the run at once with its code", () => {
    const { snapshot, actions } = runStep(
      calling(),
      modelCallFailed("r1.m1.a1", false, "invalid_api_key"),
    );
    expect(snapshot.value).toBe("idle");
    expect(actions).toEqual([
      emitEvent("run.failed", {
        runId: "r1",
        code: "invalid_api_key",
        message: "invalid_api_key from the provider",
        transcriptLength: 1,
      }),
      finished("failed"),
    ]);
  });

  it("a steer that arrives during the backoff is delivered after the retried call", () => {
    const { snapshot, actions } = runSteps(
      calling(),
      modelCallFailed("r1.m1.a1", true),
      inboxEvent("run.steer", { text: "in Celsius" }, "st1"),
      timerFired(BACKOFF_TIMER),
      modelCallCompleted("r1.m1.a2", modelOutput("66 °F")),
    );
    expect(snapshot.value).toBe("calling");
    expect(actions).toContainEqual(
      appendEntry({
        log: "transcript",
        key: "s1",
        index: 2,
        entry: { role: "user", text: "in Celsius", messageId: "st1" },
      }),
    );
    expect(actions.at(-1)).toEqual(
      requestEffect({
        effect: "model.call",
        effectId: "r1.m2.a1",
        input: {
          sessionId: "s1",
          runId: "r1",
          transcriptLength: 3,
          modelCallIndex: 2,
          retry: 1,
          withoutTools: false,
        },
      }),
    );
  });

  it("a failure of an earlier try is ignored", () => {
    const retrying = runSteps(
      calling(),
      modelCallFailed("r1.m1.a1", true),
      timerFired(BACKOFF_TIMER),
    ).snapshot;
    const stale = runStep(retrying, modelCallFailed("r1.m1.a1", false));
    expect(stale.actions).toEqual([]);
    expect(stale.snapshot.value).toBe("calling");
  });
});

describe("run: cancellation", () => {
  it("while calling: aborts the call, then keeps the partial answer and its usage", () => {
    const cancelling = runStep(calling(), cancel({ reason: "user pressed stop" }));
    expect(cancelling.snapshot.value).toBe("cancelling");
    expect(cancelling.actions).toEqual([
      cancelEffect({ effectId: "r1.m1.a1" }),
      timerArmed(CANCEL_TIMER, 5000),
    ]);
    const partial = modelOutput("Sunny, 1", 10, 3, { finishReason: "abort", cancelled: true });
    const done = runStep(cancelling.snapshot, modelCallCompleted("r1.m1.a1", partial));
    expect(done.snapshot.value).toBe("idle");
    expect(done.actions).toEqual([
      timerCancelled(CANCEL_TIMER),
      appendEntry({
        log: "transcript",
        key: "s1",
        index: 1,
        entry: { role: "assistant", text: "Sunny, 1", runId: "r1" },
      }),
      emitEvent("run.cancelled", {
        runId: "r1",
        partialText: "Sunny, 1",
        usage: { inputTokens: 10, outputTokens: 3 },
        reason: "user pressed stop",
        transcriptLength: 2,
      }),
      finished("cancelled", 2),
    ]);
  });

  it("while calling: a failure of the aborted call ends the run cancelled, without partial text", () => {
    const { actions } = runSteps(
      calling(),
      cancel(),
      modelCallFailed("r1.m1.a1", false, "aborted"),
    );
    expect(actions).toEqual([
      timerCancelled(CANCEL_TIMER),
      emitEvent("run.cancelled", {
        runId: "r1",
        usage: { inputTokens: 0, outputTokens: 0 },
        transcriptLength: 1,
      }),
      finished("cancelled"),
    ]);
  });

  it("while calling: if no result comes within 5 000 ms the run ends cancelled; a late result is ignored", () => {
    const cancelling = runStep(calling(), cancel()).snapshot;
    const timedOut = runStep(cancelling, timerFired(CANCEL_TIMER));
    expect(timedOut.snapshot.value).toBe("idle");
    expect(timedOut.actions).toEqual([
      timerCancelled(CANCEL_TIMER),
      emitEvent("run.cancelled", {
        runId: "r1",
        usage: { inputTokens: 0, outputTokens: 0 },
        transcriptLength: 1,
      }),
      finished("cancelled"),
    ]);
    const late = runStep(timedOut.snapshot, modelCallCompleted("r1.m1.a1", modelOutput("late")));
    expect(late.actions).toEqual([]);
  });

  it("while calling: a second run.cancel is ignored", () => {
    const cancelling = runStep(calling(), cancel()).snapshot;
    const again = runStep(cancelling, cancel());
    expect(again.actions).toEqual([]);
    expect(again.snapshot.value).toBe("cancelling");
  });

  it("in backoff: ends the run cancelled at once and drops the retry timer", () => {
    const backoff = runStep(calling(), modelCallFailed("r1.m1.a1", true)).snapshot;
    const { snapshot, actions } = runStep(backoff, cancel({ runId: "r1" }));
    expect(snapshot.value).toBe("idle");
    expect(actions).toEqual([
      timerCancelled(BACKOFF_TIMER),
      emitEvent("run.cancelled", {
        runId: "r1",
        usage: { inputTokens: 0, outputTokens: 0 },
        transcriptLength: 1,
      }),
      finished("cancelled"),
    ]);
  });

  it("steers pending at cancellation are not applied (the session runs them later)", () => {
    const { actions } = runSteps(
      calling(),
      inboxEvent("run.steer", { text: "x", runId: "r1" }, "st1"),
      cancel(),
      modelCallCompleted("r1.m1.a1", modelOutput("", 1, 1, { cancelled: true })),
    );
    expect(actions.at(-1)).toEqual(finished("cancelled"));
  });

  it("for another run, or with no run, run.cancel is ignored", () => {
    const before = calling();
    const other = runStep(before, cancel({ runId: "r0" }));
    expect(other.actions).toEqual([]);
    expect(other.snapshot.context).toEqual(before.context);
    const idle = runStep(newRunActor(), cancel());
    expect(idle.actions).toEqual([]);
    expect(idle.snapshot.value).toBe("idle");
  });
});
