import type {
  ActorInput,
  PriorityClass,
  ToolPolicyOverrides,
  TranscriptBase,
  Usage,
  UsedAgentDefinition,
} from "@troupe/protocol";
import type { ToolPhase } from "./tool-phase.js";

/**
 * How many times the run makes one model call when its errors are retryable:
 * the first call and its retries, so `retry` runs from 1 to 3.
 */
export const MAX_MODEL_CALL_TRIES = 3;
/** Wait before the first retry of a model call, in ms; doubles for each further retry. */
export const RETRY_BASE_DELAY_MS = 500;
/** How long a cancelled run waits for the aborted model call's partial result, in ms. */
export const CANCEL_TIMEOUT_MS = 5000;

/**
 * Wait before retrying a model call whose try `retry` failed:
 * 500 ms × 2^(retry − 1), i.e. 500 ms, then 1 000 ms.
 *
 * @param retry - the try that failed, 1-based (1 = the first call).
 * @returns the delay in ms.
 */
export function retryDelayMs(retry: number): number {
  return RETRY_BASE_DELAY_MS * 2 ** (retry - 1);
}

/** A steer text waiting for the run's next safe point. */
export interface PendingSteer {
  readonly text: string;
  /** Id of the `run.steer` message that carried it. */
  readonly messageId: string;
}

/** The run in progress. */
export interface ActiveRun {
  readonly runId: string;
  /** Agent named by the session; undefined = the host's default agent. */
  readonly agent: string | undefined;
  /** Model named by the session; undefined = the agent's model. */
  readonly model: string | undefined;
  readonly maxModelCalls: number;
  /**
   * Scheduling class from `run.start` (docs/decisions/0057), given to the run's
   * model calls and tool calls; absent = `default`. Orders host work only.
   */
  readonly priority?: PriorityClass;
  /** The session's tool policy overrides, from `run.start` (passed to each model call). */
  readonly toolPolicy?: ToolPolicyOverrides | undefined;
  /** 1-based index of the current model call; above `maxModelCalls` = the final call without tools. */
  readonly modelCalls: number;
  /**
   * The try of the current model call, 1-based: 1 for the first call, +1 for
   * each retry after a retryable error (at most {@link MAX_MODEL_CALL_TRIES}).
   */
  readonly retry: number;
  /**
   * 0-based index of the model the run calls in its agent's fallback chain
   * (docs/decisions/0042): absent = 0, the primary; raised by `run.model_fallback` and
   * kept for the run's later model calls.
   */
  readonly modelIndex?: number | undefined;
  /** Tokens of the model calls that completed, summed. */
  readonly usage: Usage;
  /** Entries in the transcript; the next entry goes at this index. */
  readonly transcriptLength: number;
  /** Steer texts for the next safe point, in arrival order. */
  readonly pendingSteers: readonly PendingSteer[];
  /** Steer texts appended to the transcript so far. */
  readonly steersApplied: number;
  /** Why the run is being cancelled (from `run.cancel`), if it is. */
  readonly cancelReason: string | undefined;
  /** The tool calls of the last model response while they run; undefined otherwise. */
  readonly toolPhase: ToolPhase | undefined;
  /** A forked session's shared transcript prefix, from `run.start` (docs/decisions/0043). */
  readonly transcriptBase?: TranscriptBase | undefined;
  /**
   * The agent definition the run is pinned to (docs/decisions/0055), from the
   * output of its first model call (and replaced when a later call reports a
   * declared migration); passed to every later model call. Absent before the
   * first call completes, and in runs of earlier releases until their next call.
   */
  readonly definition?: UsedAgentDefinition | undefined;
}

/** Context of {@link runMachine}. */
export interface RunContext {
  /** The id of the actor's address (`run/<sessionId>`). */
  readonly sessionId: string;
  /** The run that ended last (a repeated `run.start` for it is ignored). */
  readonly lastRunId: string | undefined;
  /** The run in progress, if any. */
  readonly run: ActiveRun | undefined;
  /**
   * For the run actor of a subagent's session: the session that delegated to
   * it (from `run.start`). The host publishes the actor's events on that
   * session's subjects.
   */
  readonly parentSessionId?: string | undefined;
  /**
   * For the run actor of a subagent's session: the delegating run of
   * `parentSessionId` (from `run.start`), passed to every
   * `model.call` so its `run` spend budget counts this session's calls.
   * Absent in older snapshots and for a subagent session created before it existed.
   */
  readonly parentRunId?: string | undefined;
  /**
   * Index of the session's latest `summary` transcript entry (docs/decisions/0040):
   * model calls read from its `through` on. Absent before the first compaction.
   */
  readonly summaryIndex?: number | undefined;
  /** A `run.compact` waits for the next model call (docs/decisions/0040). */
  readonly compactRequested?: boolean | undefined;
}

/**
 * The context of a run actor that has seen nothing yet.
 *
 * @param input - the actor's address; its id is the session id.
 * @returns the initial context.
 */
export function initialRunContext(input: ActorInput): RunContext {
  return { sessionId: input.address.id, lastRunId: undefined, run: undefined };
}

/**
 * Id of the current model call's effect: `<runId>.m<modelCallIndex>.a<retry>`
 * (the `a` stays from when `retry` was called attempt: ids are in stored snapshots);
 * with a fallback model (`modelIndex` ≥ 1)
 * `<runId>.m<modelCallIndex>.f<modelIndex>.a<retry>`, so its tries never reuse
 * the id of one of the primary's.
 *
 * @param run - the run in progress.
 * @returns the effect id, unique within the run actor.
 */
export function modelCallEffectId(run: ActiveRun): string {
  const fallback = (run.modelIndex ?? 0) > 0 ? `.f${run.modelIndex}` : "";
  return `${run.runId}.m${run.modelCalls}${fallback}.a${run.retry}`;
}

/**
 * Whether the current model call is the final one, made without tools because
 * the run reached `maxModelCalls`; its answer ends the run.
 *
 * @param run - the run in progress.
 */
export function isFinalCall(run: ActiveRun): boolean {
  return run.modelCalls > run.maxModelCalls;
}
