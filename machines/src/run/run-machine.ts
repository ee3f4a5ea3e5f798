import { not, setup } from "xstate";
import { hostActionImplementations } from "@troupe/protocol";
import type { ActorInput } from "@troupe/protocol";
import { stepAction } from "../host-actions/machine-step.js";
import { readModelCallOutput } from "./model-call-output.js";
import {
  CANCEL_TIMEOUT_MS,
  MAX_MODEL_CALL_TRIES,
  initialRunContext,
  isFinalCall,
  modelCallEffectId,
  retryDelayMs,
  type RunContext,
} from "./run-context.js";
import type { RunEvent } from "./run-events.js";
import { fallBack, fallbackOf } from "./fallback-steps.js";
import {
  cancelTools,
  finishTools,
  phaseAfterResult,
  recordToolResult,
  startTools,
} from "./run-tool-steps.js";
import {
  beginRun,
  complete,
  deliverSteers,
  fail,
  finishCancelled,
  nextRetry,
  queueSteer,
  recordDefinition,
  requestCancel,
  requestModelCall,
} from "./run-steps.js";
import { awaitsResult, isToolPhaseSettled } from "./tool-phase.js";
import { emitBudgetWarnings } from "./budget-steps.js";
import { recordCompaction, requestCompaction } from "./run-compaction-steps.js";

const step = stepAction<RunContext, RunEvent>;

/**
 * The run actor of a session (`run/<sessionId>`): runs the session's runs one
 * after another. A run is the agent loop: model call → tool calls → model call
 * … until an answer, the `maxModelCalls` limit, a cancellation or a failure.
 * Retryable model errors are retried (3 tries in all, durable backoff), then,
 * for an availability error and an agent with a fallback chain, the next model
 * is called (`run.model_fallback`, fallback-steps.ts); each tool
 * call runs as its own actor (`tool/<toolActorId>`): reads in parallel, writes
 * one at a time in the model's order, later writes skipped once one fails;
 * steer texts are delivered at the next safe point; usage is summed over the
 * run's model calls; every run ends with exactly one of `run.completed` /
 * `run.failed` / `run.cancelled` and one `run.finished` to the session.
 *
 * States: `idle` (no run), `calling` (a model call is running), `backoff`
 * (waiting to retry it), `runningTools` (waiting for the tool calls of the last
 * response), `cancelling` (waiting for the aborted call's partial result, at
 * most 5 000 ms). See ../../README.md.
 *
 * Input: `{ address: { kind: "run", id: sessionId } }`.
 */
export const runMachine = setup({
  types: {
    context: {} as RunContext,
    events: {} as RunEvent,
    input: {} as ActorInput,
  },
  actions: {
    ...hostActionImplementations,
    beginRun: step(beginRun),
    requestModelCall: step(requestModelCall),
    queueSteer: step(queueSteer),
    deliverSteers: step(deliverSteers),
    complete: step(complete),
    fail: step(fail),
    nextRetry: step(nextRetry),
    requestCancel: step(requestCancel),
    finishCancelled: step(finishCancelled),
    startTools: step(startTools),
    recordToolResult: step(recordToolResult),
    finishTools: step(finishTools),
    cancelTools: step(cancelTools),
    fallBack: step(fallBack),
    emitBudgetWarnings: step(emitBudgetWarnings),
    recordCompaction: step(recordCompaction),
    recordDefinition: step(recordDefinition),
    requestCompaction: step(requestCompaction),
  },
  guards: {
    /** A `run.start` for this session, not a repeat of the run that just ended. */
    canStart: ({ context, event }) =>
      event.type === "run.start" &&
      context.run === undefined &&
      event.sessionId === context.sessionId &&
      event.runId !== context.lastRunId,
    /** A result of the current model call (earlier tries and calls are ignored). */
    isCurrentEffect: ({ context, event }) =>
      (event.type === "effect.completed" || event.type === "effect.failed") &&
      context.run !== undefined &&
      event.effectId === modelCallEffectId(context.run),
    hasModelOutput: ({ event }) =>
      event.type === "effect.completed" && readModelCallOutput(event.output) !== undefined,
    /** The answer asks for tools, and the call that made it was not the final one (without tools). */
    hasToolCalls: ({ context: { run }, event }) =>
      event.type === "effect.completed" &&
      run !== undefined &&
      !isFinalCall(run) &&
      (readModelCallOutput(event.output)?.toolCalls.length ?? 0) > 0,
    /** A `tool.finished` of this run's current response, for a call that waits for it. */
    awaitsToolResult: ({ context: { run }, event }) =>
      event.type === "tool.finished" &&
      run?.toolPhase !== undefined &&
      event.runId === run.runId &&
      awaitsResult(run.toolPhase, event.toolCallId),
    /** With this result every call of the response has one. */
    settlesToolPhase: ({ context: { run }, event }) => {
      const after = phaseAfterResult(run, event);
      return after !== undefined && isToolPhaseSettled(after.phase);
    },
    /** Steers wait and the call that just ended was not the final one. */
    hasSteersToDeliver: ({ context: { run } }) =>
      run !== undefined && run.pendingSteers.length > 0 && !isFinalCall(run),
    canRetry: ({ context: { run }, event }) =>
      event.type === "effect.failed" &&
      event.error.retryable &&
      run !== undefined &&
      run.retry < MAX_MODEL_CALL_TRIES,
    /** The current model failed its last try with an availability error, and a next model exists (docs/decisions/0042). */
    canFallBack: ({ context: { run }, event }) => fallbackOf(run, event) !== undefined,
    /** A `run.cancel` / `run.steer` for the active run (or for no run in particular). */
    targetsRun: ({ context: { run }, event }) =>
      (event.type === "run.cancel" || event.type === "run.steer") &&
      run !== undefined &&
      (event.runId === undefined || event.runId === run.runId),
  },
  delays: {
    retryDelay: ({ context }) => retryDelayMs(context.run?.retry ?? 1),
    cancelTimeout: CANCEL_TIMEOUT_MS,
  },
}).createMachine({
  id: "run",
  context: ({ input }) => initialRunContext(input),
  initial: "idle",
  // A forwarded `session.compact` marks the next model call, in every state.
  on: { "run.compact": { actions: "requestCompaction" } },
  states: {
    idle: {
      on: { "run.start": { guard: "canStart", target: "calling", actions: "beginRun" } },
    },
    calling: {
      entry: "requestModelCall",
      exit: "emitBudgetWarnings",
      on: {
        "effect.completed": [
          { guard: not("isCurrentEffect") },
          { guard: not("hasModelOutput"), target: "idle", actions: "fail" },
          {
            guard: "hasToolCalls",
            target: "runningTools",
            actions: ["recordDefinition", "recordCompaction", "startTools"],
          },
          {
            guard: "hasSteersToDeliver",
            target: "calling",
            reenter: true,
            actions: ["recordDefinition", "recordCompaction", "deliverSteers"],
          },
          { target: "idle", actions: ["recordDefinition", "recordCompaction", "complete"] },
        ],
        "effect.failed": [
          { guard: not("isCurrentEffect") },
          { guard: "canRetry", target: "backoff" },
          { guard: "canFallBack", target: "calling", reenter: true, actions: "fallBack" },
          { target: "idle", actions: "fail" },
        ],
        "run.cancel": { guard: "targetsRun", target: "cancelling", actions: "requestCancel" },
        "run.steer": { guard: "targetsRun", actions: "queueSteer" },
      },
    },
    backoff: {
      after: { retryDelay: { target: "calling", actions: "nextRetry" } },
      on: {
        "run.cancel": { guard: "targetsRun", target: "idle", actions: "finishCancelled" },
        "run.steer": { guard: "targetsRun", actions: "queueSteer" },
      },
    },
    runningTools: {
      on: {
        "tool.finished": [
          { guard: not("awaitsToolResult") },
          { guard: "settlesToolPhase", target: "calling", actions: "finishTools" },
          { actions: "recordToolResult" },
        ],
        "run.cancel": { guard: "targetsRun", target: "idle", actions: "cancelTools" },
        "run.steer": { guard: "targetsRun", actions: "queueSteer" },
      },
    },
    cancelling: {
      exit: "emitBudgetWarnings",
      after: { cancelTimeout: { target: "idle", actions: "finishCancelled" } },
      on: {
        "effect.completed": [
          { guard: not("isCurrentEffect") },
          { guard: not("hasModelOutput"), target: "idle", actions: "finishCancelled" },
          { target: "idle", actions: ["recordCompaction", "finishCancelled"] },
        ],
        "effect.failed": [
          { guard: not("isCurrentEffect") },
          { target: "idle", actions: "finishCancelled" },
        ],
      },
    },
  },
});
