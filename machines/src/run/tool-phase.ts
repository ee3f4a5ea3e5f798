import type {
  ToolCallStatus,
  ToolEffectClass,
  TranscriptEntry,
  ModelToolCall,
  MediaRef,
} from "@troupe/protocol";

// The tool phase of a run: the tool calls of one model response, which of them
// have started and which have a result. Pure functions over plain data; the
// run's steps (run-tool-steps.ts) turn their answers into host actions.

/** The result of one tool call, as the transcript will record it. */
export interface ToolCallResult {
  readonly status: ToolCallStatus;
  /** What the model reads as the call's result. */
  readonly content: string;
  /** Media references the tool returned (docs/decisions/0045), read by the model with `content`. */
  readonly media?: MediaRef[];
}

/** One tool call of the response, with its progress. */
export interface ToolCallSlot extends ModelToolCall {
  /** `tool.start` was sent to its tool call actor. */
  readonly started: boolean;
  /** Its result, once known (from `tool.finished`, or decided by the run). */
  readonly result: ToolCallResult | undefined;
}

/** The tool calls of one model response, in the model's order. */
export interface ToolPhase {
  readonly calls: readonly ToolCallSlot[];
}

/** Content of a write that never started because an earlier write did not succeed. */
export const SKIPPED_CONTENT =
  "Not run: an earlier write of the same response did not succeed, so the later writes were skipped.";
/** Content of a call that had no result when its run was cancelled. */
export const CANCELLED_CONTENT =
  "Not finished: the run was cancelled before this tool call had a result.";

/**
 * Whether calls of this class are writes: they run one at a time, in the
 * model's order (every class but `read`).
 *
 * @param effectClass - the call's effect class.
 */
export function isWrite(effectClass: ToolEffectClass): boolean {
  return effectClass !== "read";
}

/**
 * The tool phase of a response, nothing started yet.
 *
 * @param calls - the response's tool calls, in the model's order (at least one).
 */
export function openToolPhase(calls: readonly ModelToolCall[]): ToolPhase {
  return {
    calls: calls.map(
      ({ toolCallId, toolName, input, effectClass, decision, approvalTimeoutMs, subagent }) => ({
        toolCallId,
        toolName,
        input,
        effectClass,
        ...(decision === undefined ? {} : { decision }),
        ...(approvalTimeoutMs === undefined ? {} : { approvalTimeoutMs }),
        ...(subagent === undefined ? {} : { subagent }),
        started: false,
        result: undefined,
      }),
    ),
  };
}

/**
 * Starts what may start now and skips what never will:
 *
 * - every read that has not started starts (reads run in parallel);
 * - writes go in the model's order: the first write without a result starts
 *   when it has not yet, unless an earlier write did not succeed — then it and
 *   every later write get a `skipped` result instead.
 *
 * @param phase - the phase.
 * @returns the next phase and the calls that start now, in the model's order.
 */
export function advanceToolPhase(phase: ToolPhase): {
  readonly phase: ToolPhase;
  readonly starting: readonly ToolCallSlot[];
} {
  let earlierWriteFailed = false;
  let writeInFlight = false;
  const starting: ToolCallSlot[] = [];
  const calls = phase.calls.map((call): ToolCallSlot => {
    if (call.result !== undefined) {
      if (isWrite(call.effectClass) && call.result.status !== "succeeded") {
        earlierWriteFailed = true;
      }
      return call;
    }
    if (call.started) {
      if (isWrite(call.effectClass)) writeInFlight = true;
      return call;
    }
    if (!isWrite(call.effectClass)) {
      const started = { ...call, started: true };
      starting.push(started);
      return started;
    }
    if (earlierWriteFailed) {
      return { ...call, result: { status: "skipped", content: SKIPPED_CONTENT } };
    }
    if (writeInFlight) return call;
    writeInFlight = true;
    const started = { ...call, started: true };
    starting.push(started);
    return started;
  });
  return { phase: { calls }, starting };
}

/**
 * Whether `toolCallId` names a call of this phase that started and waits for
 * its result.
 *
 * @param phase - the phase.
 * @param toolCallId - the call's id.
 */
export function awaitsResult(phase: ToolPhase, toolCallId: string): boolean {
  return phase.calls.some(
    (call) => call.toolCallId === toolCallId && call.started && call.result === undefined,
  );
}

/**
 * Records the result of one call, then advances the phase (see
 * {@link advanceToolPhase}): a finished write lets the next one start, or
 * skips the rest.
 *
 * @param phase - the phase.
 * @param toolCallId - the call that finished.
 * @param result - its result.
 * @returns the next phase and the calls that start now.
 */
export function settleToolCall(
  phase: ToolPhase,
  toolCallId: string,
  result: ToolCallResult,
): ReturnType<typeof advanceToolPhase> {
  const calls = phase.calls.map((call) =>
    call.toolCallId === toolCallId && call.result === undefined ? { ...call, result } : call,
  );
  return advanceToolPhase({ calls });
}

/**
 * Whether every call of the phase has a result.
 *
 * @param phase - the phase.
 */
export function isToolPhaseSettled(phase: ToolPhase): boolean {
  return phase.calls.every((call) => call.result !== undefined);
}

/**
 * Gives every call without a result a `cancelled` result (the run was
 * cancelled).
 *
 * @param phase - the phase.
 * @returns the settled phase and the calls that were running (started, no
 *   result): their tool call actors get `tool.cancel`.
 */
export function cancelToolPhase(phase: ToolPhase): {
  readonly phase: ToolPhase;
  readonly running: readonly ToolCallSlot[];
} {
  const running = phase.calls.filter((call) => call.started && call.result === undefined);
  const calls = phase.calls.map((call) =>
    call.result === undefined
      ? { ...call, result: { status: "cancelled" as const, content: CANCELLED_CONTENT } }
      : call,
  );
  return { phase: { calls }, running };
}

/**
 * The `tool` transcript entries of a settled phase, one per call in the
 * model's order (a call without a result is left out; callers settle first).
 *
 * @param runId - the run.
 * @param phase - a settled phase.
 */
export function toolResultEntries(runId: string, phase: ToolPhase): TranscriptEntry[] {
  return phase.calls.flatMap(({ toolCallId, toolName, result }) =>
    result === undefined ? [] : [{ role: "tool" as const, runId, toolCallId, toolName, ...result }],
  );
}
