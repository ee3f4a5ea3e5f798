import { describe, expect, it } from "vitest";
import { emitEvent, requestEffect, sendMessage } from "@troupe/protocol";
import { inboxEvent, timerCancelled } from "../testing/inbox.js";
import {
  modelCallCompleted,
  modelOutput,
  newRunActor,
  runStart,
  runStep,
  runSteps,
  timerFired,
  type RunSnapshot,
} from "../testing/run-kit.js";
import type { RunEvent } from "./run-events.js";
import { fallbackOf, isAvailabilityError } from "./fallback-steps.js";

const BACKOFF_TIMER = "xstate.after.retryDelay.run.backoff";
const CHAIN = ["anthropic:claude-sonnet-4-5", "openai:gpt-4o", "scripted:demo"];

/** `effect.failed` of a model call, as the handler reports a failure of model `modelIndex`. */
function failed(
  effectId: string,
  options: {
    code?: string;
    retryable?: boolean;
    statusCode?: number;
    details?: Record<string, unknown> | undefined;
    modelIndex?: number;
  } = {},
): RunEvent {
  const code = options.code ?? "model_error";
  const details =
    "details" in options
      ? options.details
      : {
          modelIndex: options.modelIndex ?? 0,
          models: CHAIN,
          statusCode: options.statusCode ?? 529,
        };
  return {
    type: "effect.failed",
    effectId,
    effect: "model.call",
    error: {
      code,
      message: `${code} (${options.statusCode ?? 529})`,
      retryable: options.retryable ?? true,
      ...(details === undefined ? {} : { details }),
    },
  };
}

/** A run whose primary failed its first two tries and waits in `calling` for the third. */
function primaryOnLastTry(): RunSnapshot {
  return runSteps(
    runStep(newRunActor(), runStart()).snapshot,
    failed("r1.m1.a1"),
    timerFired(BACKOFF_TIMER),
    failed("r1.m1.a2"),
    timerFired(BACKOFF_TIMER),
  ).snapshot;
}

const modelCall = (effectId: string, extra: Record<string, unknown> = {}) =>
  requestEffect({
    effect: "model.call",
    effectId,
    input: {
      sessionId: "s1",
      runId: "r1",
      transcriptLength: 1,
      modelCallIndex: 1,
      withoutTools: false,
      retry: 1,
      ...extra,
    },
  });

describe("run: fallback model chain (issue #19)", () => {
  it("after the primary's third availability failure the run calls the next model at once, from try 1", () => {
    const { snapshot, actions } = runStep(primaryOnLastTry(), failed("r1.m1.a3"));
    expect(snapshot.value).toBe("calling");
    expect(snapshot.context.run).toMatchObject({ modelIndex: 1, retry: 1, modelCalls: 1 });
    expect(actions).toEqual([
      emitEvent("run.model_fallback", {
        runId: "r1",
        modelCallIndex: 1,
        fromIndex: 0,
        toIndex: 1,
        from: "anthropic:claude-sonnet-4-5",
        to: "openai:gpt-4o",
        code: "model_error",
        message: "model_error (529)",
        statusCode: 529,
      }),
      modelCall("r1.m1.f1.a1", { modelIndex: 1 }),
    ]);
  });

  it("the fallback's answer completes the run, and run.completed names the model that answered", () => {
    const onFallback = runStep(primaryOnLastTry(), failed("r1.m1.a3")).snapshot;
    const { snapshot, actions } = runStep(
      onFallback,
      modelCallCompleted(
        "r1.m1.f1.a1",
        modelOutput("Sunny.", 10, 2, { model: "openai:gpt-4o", modelIndex: 1 }),
      ),
    );
    expect(snapshot.value).toBe("idle");
    expect(actions).toContainEqual(
      emitEvent("run.completed", {
        runId: "r1",
        text: "Sunny.",
        usage: { inputTokens: 10, outputTokens: 2 },
        model: "openai:gpt-4o",
        transcriptLength: 2,
      }),
    );
  });

  it("a late result of the primary's superseded try is ignored once the run is on the fallback", () => {
    const onFallback = runStep(primaryOnLastTry(), failed("r1.m1.a3")).snapshot;
    const late = runStep(onFallback, modelCallCompleted("r1.m1.a3", modelOutput("late")));
    expect(late.actions).toEqual([]);
    expect(late.snapshot.context.run).toMatchObject({ modelIndex: 1, retry: 1 });
  });

  it("the fallback gets its own tries with backoff, then the third model; after the last model the run fails", () => {
    let step = runStep(primaryOnLastTry(), failed("r1.m1.a3"));
    step = runSteps(
      step.snapshot,
      failed("r1.m1.f1.a1", { modelIndex: 1, statusCode: 503 }),
      timerFired(BACKOFF_TIMER),
    );
    expect(step.actions).toEqual([
      timerCancelled(BACKOFF_TIMER),
      modelCall("r1.m1.f1.a2", { modelIndex: 1, retry: 2 }),
    ]);
    step = runSteps(
      step.snapshot,
      failed("r1.m1.f1.a2", { modelIndex: 1, statusCode: 503 }),
      timerFired(BACKOFF_TIMER),
      failed("r1.m1.f1.a3", { modelIndex: 1, statusCode: 503 }),
    );
    expect(step.actions[0]).toEqual(
      emitEvent("run.model_fallback", {
        runId: "r1",
        modelCallIndex: 1,
        fromIndex: 1,
        toIndex: 2,
        from: "openai:gpt-4o",
        to: "scripted:demo",
        code: "model_error",
        message: "model_error (503)",
        statusCode: 503,
      }),
    );
    expect(step.actions[1]).toEqual(modelCall("r1.m1.f2.a1", { modelIndex: 2 }));
    const last = runSteps(
      step.snapshot,
      failed("r1.m1.f2.a1", { modelIndex: 2 }),
      timerFired(BACKOFF_TIMER),
      failed("r1.m1.f2.a2", { modelIndex: 2 }),
      timerFired(BACKOFF_TIMER),
      failed("r1.m1.f2.a3", { modelIndex: 2 }),
    );
    expect(last.snapshot.value).toBe("idle");
    expect(last.actions[0]).toEqual(
      emitEvent("run.failed", {
        runId: "r1",
        code: "model_error",
        message: "model_error (529)",
        transcriptLength: 1,
      }),
    );
  });

  it("a request the provider refused (not retryable) fails the run at once, without falling back", () => {
    const { snapshot, actions } = runStep(
      runStep(newRunActor(), runStart()).snapshot,
      failed("r1.m1.a1", { retryable: false, statusCode: 400 }),
    );
    expect(snapshot.value).toBe("idle");
    expect(actions).toEqual([
      emitEvent("run.failed", {
        runId: "r1",
        code: "model_error",
        message: "model_error (400)",
        transcriptLength: 1,
      }),
      sendMessage({
        to: "session/s1",
        type: "run.finished",
        payload: { runId: "r1", outcome: "failed", transcriptLength: 1, steersApplied: 0 },
      }),
    ]);
  });

  it("without a chain position in the error (an agent with one model, an older host) the run fails after its tries", () => {
    const { snapshot, actions } = runStep(
      primaryOnLastTry(),
      failed("r1.m1.a3", { details: { statusCode: 529 } }),
    );
    expect(snapshot.value).toBe("idle");
    expect(actions[0]).toMatchObject({ params: { type: "run.failed" } });
  });

  it("a retryable error that is not about the model (an unreadable transcript) does not fall back", () => {
    const { snapshot } = runStep(primaryOnLastTry(), failed("r1.m1.a3", { code: "effect_failed" }));
    expect(snapshot.value).toBe("idle");
  });

  it("the later model calls of the run stay on the fallback; the next run starts with the primary", () => {
    const onFallback = runSteps(
      primaryOnLastTry(),
      failed("r1.m1.a3"),
      inboxEvent("run.steer", { text: "shorter" }, "st1"),
    ).snapshot;
    const second = runStep(
      onFallback,
      modelCallCompleted("r1.m1.f1.a1", modelOutput("A long answer", 10, 3)),
    );
    expect(second.actions.at(-1)).toEqual(
      modelCall("r1.m2.f1.a1", { modelIndex: 1, modelCallIndex: 2, transcriptLength: 3 }),
    );
    const done = runStep(
      second.snapshot,
      modelCallCompleted("r1.m2.f1.a1", modelOutput("Short.", 10, 1)),
    );
    expect(done.snapshot.value).toBe("idle");
    const next = runStep(done.snapshot, runStart({ runId: "r2", transcriptLength: 5 }));
    expect(next.actions).toEqual([
      requestEffect({
        effect: "model.call",
        effectId: "r2.m1.a1",
        input: {
          sessionId: "s1",
          runId: "r2",
          transcriptLength: 5,
          modelCallIndex: 1,
          retry: 1,
          withoutTools: false,
        },
      }),
    ]);
  });

  it("fallbackOf refuses a chain position that does not match the run's current model", () => {
    const run = primaryOnLastTry().context.run;
    expect(fallbackOf(run, failed("r1.m1.a3", { modelIndex: 1 }))).toBeUndefined();
    expect(fallbackOf(run, failed("r1.m1.a3", { details: { modelIndex: 0, models: [] } }))).toBe(
      undefined,
    );
    expect(fallbackOf(run, failed("r1.m1.a3"))?.to).toBe("openai:gpt-4o");
  });

  it("availability errors are the retryable model_error and model_timeout", () => {
    const error = (code: string, retryable: boolean) => ({ code, message: "m", retryable });
    expect(isAvailabilityError(error("model_error", true))).toBe(true);
    expect(isAvailabilityError(error("model_timeout", true))).toBe(true);
    expect(isAvailabilityError(error("model_error", false))).toBe(false);
    expect(isAvailabilityError(error("effect_failed", true))).toBe(false);
    expect(isAvailabilityError(error("payload_too_large", false))).toBe(false);
  });
});
