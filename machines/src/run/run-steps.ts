import {
  formatAddress,
  type RunOutcome,
  type TranscriptEntry,
  type Usage,
  MODEL_CALL_EFFECT,
  type ModelCallInput,
} from "@troupe/protocol";
import { appendEntry, cancelEffect, emitEvent, requestEffect, sendMessage } from "@troupe/protocol";
import type { HostAction, MachineStep } from "../host-actions/machine-step.js";
import { checkModelCallOutput, readModelCallOutput } from "./model-call-output.js";
import { isFinalCall, modelCallEffectId, type ActiveRun, type RunContext } from "./run-context.js";
import { INVALID_MODEL_OUTPUT_CODE, type RunEvent } from "./run-events.js";
import { withTranscriptLength } from "./with-transcript-length.js";

// The run machine's steps: pure functions of context and event that say what
// changes and what the host must do. run-machine.ts decides when each runs.

/** A step of the run machine: context and event in, patch and host actions out. */
export type RunStep = (context: RunContext, event: RunEvent) => MachineStep<RunContext>;

/** Token usage `a` + `b`. */
export const addUsage = (a: Usage, b: Usage): Usage => ({
  inputTokens: a.inputTokens + b.inputTokens,
  outputTokens: a.outputTokens + b.outputTokens,
});
const assistant = (run: ActiveRun, text: string): TranscriptEntry[] =>
  text === "" ? [] : [{ role: "assistant", text, runId: run.runId }];

/** The pending steer texts as `user` transcript entries, in arrival order. */
export const steerEntries = (run: ActiveRun): TranscriptEntry[] =>
  run.pendingSteers.map(({ text, messageId }) => ({ role: "user" as const, text, messageId }));

/** `troupe.append` actions for `entries`, from index `run.transcriptLength` on. */
export function appendAll(sessionId: string, run: ActiveRun, entries: readonly TranscriptEntry[]) {
  return entries.map((entry, offset) =>
    appendEntry({ log: "transcript", key: sessionId, index: run.transcriptLength + offset, entry }),
  );
}

/**
 * Ends the run: appends `entries`, publishes its final event, tells the session
 * with `run.finished`, and forgets the run. A subagent's run (one with a
 * `parentSessionId`) adds `text` to `run.finished`.
 */
export function finish(
  context: RunContext,
  run: ActiveRun,
  outcome: RunOutcome,
  entries: readonly TranscriptEntry[],
  event: HostAction,
  text?: string,
): MachineStep<RunContext> {
  const payload = {
    runId: run.runId,
    outcome,
    transcriptLength: run.transcriptLength + entries.length,
    steersApplied: run.steersApplied,
    // Only a subagent's session needs the text (it passes it on as subagent.finished).
    ...(text === undefined || context.parentSessionId === undefined ? {} : { text }),
  };
  const session = formatAddress({ kind: "session", id: context.sessionId });
  return {
    context: { run: undefined, lastRunId: run.runId },
    actions: [
      ...appendAll(context.sessionId, run, entries),
      withTranscriptLength(event, payload.transcriptLength),
      sendMessage({ to: session, type: "run.finished", payload }),
    ],
  };
}

/** Takes the run described by `run.start`. */
export const beginRun: RunStep = (_, event) => {
  if (event.type !== "run.start") return {};
  const run: ActiveRun = {
    runId: event.runId,
    agent: event.agent,
    model: event.model,
    maxModelCalls: event.maxModelCalls,
    ...(event.toolPolicy === undefined ? {} : { toolPolicy: event.toolPolicy }),
    modelCalls: 1,
    retry: 1,
    usage: { inputTokens: 0, outputTokens: 0 },
    transcriptLength: event.transcriptLength,
    pendingSteers: [],
    steersApplied: 0,
    cancelReason: undefined,
    toolPhase: undefined,
    ...(event.transcriptBase === undefined ? {} : { transcriptBase: event.transcriptBase }),
    ...(event.priority === undefined || event.priority === "default"
      ? {}
      : { priority: event.priority }),
  };
  return {
    context: {
      run,
      ...(event.parentSessionId === undefined ? {} : { parentSessionId: event.parentSessionId }),
      ...(event.parentRunId === undefined ? {} : { parentRunId: event.parentRunId }),
    },
  };
};

/** Requests the current model call (`troupe.effect` `model.call`). */
export const requestModelCall: RunStep = (context) => {
  const { run } = context;
  if (run === undefined) return {};
  const input: ModelCallInput = {
    sessionId: context.sessionId,
    runId: run.runId,
    ...(run.agent === undefined ? {} : { agent: run.agent }),
    ...(run.model === undefined ? {} : { model: run.model }),
    transcriptLength: run.transcriptLength,
    modelCallIndex: run.modelCalls,
    retry: run.retry,
    withoutTools: isFinalCall(run),
    ...(run.toolPolicy === undefined ? {} : { toolPolicy: run.toolPolicy }),
    ...(context.parentSessionId === undefined ? {} : { parentSessionId: context.parentSessionId }),
    ...(context.parentRunId === undefined ? {} : { parentRunId: context.parentRunId }),
    // The fallback model in use; absent for the primary, as before.
    ...((run.modelIndex ?? 0) === 0 ? {} : { modelIndex: run.modelIndex }),
    ...(context.summaryIndex === undefined ? {} : { summaryIndex: context.summaryIndex }),
    ...(context.compactRequested === true ? { compact: "manual" as const } : {}),
    ...(run.transcriptBase === undefined ? {} : { transcriptBase: run.transcriptBase }),
    // The pin, without how the run came to it.
    ...(run.definition === undefined
      ? {}
      : {
          definition: {
            hash: run.definition.hash,
            ...(run.definition.version === undefined ? {} : { version: run.definition.version }),
          },
        }),
  };
  const effectId = modelCallEffectId(run);
  // The run's class, also for a call a timer or an approval led to (docs/decisions/0057).
  const priority = run.priority === undefined ? {} : { priority: run.priority };
  return { actions: [requestEffect({ effect: MODEL_CALL_EFFECT, effectId, input, ...priority })] };
};

/**
 * Pins the run to the agent definition its model call reports
 * (docs/decisions/0055): the first call's, or a later one's that moved the run
 * through a declared migration. A handler of an earlier release reports none,
 * and the pin stays as it was.
 */
export const recordDefinition: RunStep = ({ run }, event) => {
  const output = event.type === "effect.completed" ? readModelCallOutput(event.output) : undefined;
  const reported = output?.definition;
  if (run === undefined || reported === undefined) return {};
  if (run.definition !== undefined && run.definition.hash === reported.hash) return {};
  return { context: { run: { ...run, definition: reported } } };
};

/** Keeps a steer text for the next safe point. */
export const queueSteer: RunStep = ({ run }, event) => {
  if (run === undefined || event.type !== "run.steer") return {};
  const steer = { text: event.text, messageId: event.messageId };
  return { context: { run: { ...run, pendingSteers: [...run.pendingSteers, steer] } } };
};

/**
 * A safe point with steers waiting: appends the answer so far and the steer
 * texts, then moves to the next model call.
 */
export const deliverSteers: RunStep = (context, event) => {
  const { run } = context;
  const output = event.type === "effect.completed" ? readModelCallOutput(event.output) : undefined;
  if (run === undefined || output === undefined) return {};
  const entries: TranscriptEntry[] = [...assistant(run, output.text), ...steerEntries(run)];
  const next: ActiveRun = {
    ...run,
    modelCalls: run.modelCalls + 1,
    retry: 1,
    usage: addUsage(run.usage, output.usage),
    transcriptLength: run.transcriptLength + entries.length,
    pendingSteers: [],
    steersApplied: run.steersApplied + run.pendingSteers.length,
  };
  return { context: { run: next }, actions: appendAll(context.sessionId, run, entries) };
};

/** The answer ends the run: transcript, `run.completed`, `run.finished`. */
export const complete: RunStep = (context, event) => {
  const { run } = context;
  const output = event.type === "effect.completed" ? readModelCallOutput(event.output) : undefined;
  if (run === undefined || output === undefined) return {};
  const usage = addUsage(run.usage, output.usage);
  const completed = emitEvent("run.completed", {
    runId: run.runId,
    text: output.text,
    usage,
    // The model that answered, when the handler named it.
    ...(output.model === undefined ? {} : { model: output.model }),
    // The definition the run was pinned to (the handler of this call reported it).
    ...(run.definition === undefined ? {} : { definition: run.definition }),
  });
  return finish(context, run, "completed", assistant(run, output.text), completed, output.text);
};

/** The model call failed for good (or returned a malformed output): `run.failed`. */
export const fail: RunStep = (context, event) => {
  const { run } = context;
  if (run === undefined) return {};
  const { code, message } = event.type === "effect.failed" ? event.error : invalidOutput(event);
  return finish(
    context,
    run,
    "failed",
    [],
    emitEvent("run.failed", { runId: run.runId, code, message }),
    message,
  );
};

/** `code` and `message` of `run.failed` for a model call output that is not one. */
function invalidOutput(event: RunEvent): { code: string; message: string } {
  const checked =
    event.type === "effect.completed" ? checkModelCallOutput(event.output) : undefined;
  const message =
    checked !== undefined && "problem" in checked
      ? checked.problem
      : `${MODEL_CALL_EFFECT} returned no model call output`;
  return { code: INVALID_MODEL_OUTPUT_CODE, message };
}

/** Next try of the same model call (after the backoff). */
export const nextRetry: RunStep = ({ run }) =>
  run === undefined ? {} : { context: { run: { ...run, retry: run.retry + 1 } } };

/** Aborts the running model call; the run ends when its partial result arrives. */
export const requestCancel: RunStep = ({ run }, event) => {
  if (run === undefined) return {};
  const cancelReason = event.type === "run.cancel" ? event.reason : undefined;
  return {
    context: { run: { ...run, cancelReason } },
    actions: [cancelEffect({ effectId: modelCallEffectId(run) })],
  };
};

/** Ends the run as cancelled, keeping the partial answer of an aborted call if one came. */
export const finishCancelled: RunStep = (context, event) => {
  const { run } = context;
  if (run === undefined) return {};
  const output = event.type === "effect.completed" ? readModelCallOutput(event.output) : undefined;
  const partialText = output?.text ?? "";
  const usage = output === undefined ? run.usage : addUsage(run.usage, output.usage);
  const reason = event.type === "run.cancel" ? event.reason : run.cancelReason;
  const cancelled = emitEvent("run.cancelled", {
    runId: run.runId,
    ...(partialText === "" ? {} : { partialText }),
    usage,
    ...(reason === undefined ? {} : { reason }),
  });
  return finish(context, run, "cancelled", assistant(run, partialText), cancelled, partialText);
};
