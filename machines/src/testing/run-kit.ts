import type { RunStart, ModelCallOutput, ModelToolCall } from "@troupe/protocol";
import type { SnapshotFrom } from "xstate";
import type { RunEvent } from "../run/run-events.js";
import { runMachine } from "../run/run-machine.js";
import { inboxEvent } from "./inbox.js";
import { sendEvent, startMachine, type PureStep } from "./pure-driver.js";

/** A run actor snapshot. */
export type RunSnapshot = SnapshotFrom<typeof runMachine>;

/** A fresh run actor `run/s1`. */
export function newRunActor(sessionId = "s1"): RunSnapshot {
  return startMachine(runMachine, { address: { kind: "run", id: sessionId } }).snapshot;
}

/** One pure transition of the run machine (through a JSON round trip of the snapshot). */
export function runStep(snapshot: RunSnapshot, event: RunEvent): PureStep<typeof runMachine> {
  return sendEvent(runMachine, snapshot, event);
}

/** Feeds events one after another and returns the last step. */
export function runSteps(
  snapshot: RunSnapshot,
  ...events: RunEvent[]
): PureStep<typeof runMachine> {
  let step: PureStep<typeof runMachine> = { snapshot, actions: [] };
  for (const event of events) step = runStep(step.snapshot, event);
  return step;
}

/** `run.start` for run r1 of session s1 with one transcript entry, unless overridden. */
export function runStart(overrides: Partial<RunStart> = {}) {
  return inboxEvent(
    "run.start",
    { runId: "r1", sessionId: "s1", maxModelCalls: 50, transcriptLength: 1, ...overrides },
    `session/s1:out:${overrides.runId ?? "r1"}`,
  );
}

/** A tool call as a `model.call` handler may return it: `effectClass` may be absent. */
export type RawModelToolCall = Omit<ModelToolCall, "effectClass"> &
  Partial<Pick<ModelToolCall, "effectClass">>;

/** A `model.call` output as a handler may return it: `toolCalls` may be absent. */
export type RawModelCallOutput = Omit<ModelCallOutput, "toolCalls"> & {
  readonly toolCalls?: readonly RawModelToolCall[];
};

/** A model call output with `text`, finish reason `stop` and the given usage. */
export function modelOutput(
  text: string,
  inputTokens = 10,
  outputTokens = 5,
  extra: Partial<RawModelCallOutput> = {},
): RawModelCallOutput {
  return { text, finishReason: "stop", usage: { inputTokens, outputTokens }, ...extra };
}

/** `effect.completed` of a model call. */
export function modelCallCompleted(effectId: string, output: unknown): RunEvent {
  return { type: "effect.completed", effectId, effect: "model.call", output };
}

/** `effect.failed` of a model call. */
export function modelCallFailed(
  effectId: string,
  retryable: boolean,
  code = "rate_limited",
): RunEvent {
  return {
    type: "effect.failed",
    effectId,
    effect: "model.call",
    error: { code, message: `${code} from the provider`, retryable },
  };
}

/** The machine event a durable timer of the run machine delivers when it fires. */
export function timerFired(id: string): RunEvent {
  return { type: id } as unknown as RunEvent;
}
