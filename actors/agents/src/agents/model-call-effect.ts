import {
  TroupeError,
  type ToolPolicyDecision,
  type ToolPolicyOverrides,
  toolPolicyOverridesSchema,
  type Usage,
} from "@troupe/protocol";
import { z } from "zod";
import type { ToolEffectClass } from "../tools/define-tool.js";

/**
 * Input of the `model.call` effect, as the run machine requests it. `agent` and
 * `model` may arrive as `null` after a storage round trip; both mean "absent".
 *
 * Shape: `{ sessionId, runId, agent?, model?, transcriptLength (entries, 0+),
 * modelCallIndex (1+), attempt (1+, retries of retryable errors), withoutTools,
 * toolPolicy? (the session's overrides: `{ ask?, deny? }` tool-name patterns),
 * parentSessionId? (a subagent's run: the delegating session) }`.
 */
export const modelCallInputSchema = z.object({
  sessionId: z.string().min(1),
  runId: z.string().min(1),
  /** Agent name; absent = the host's default agent. */
  agent: z.string().min(1).nullish(),
  /** Model spec; absent = the agent's model. */
  model: z.string().min(1).nullish(),
  /** The request is built from transcript entries `0 … transcriptLength − 1`. */
  transcriptLength: z.number().int().nonnegative(),
  /** 1-based index of the model call within the run. */
  modelCallIndex: z.number().int().min(1),
  /** 1-based attempt of this model call (the run machine's retries). */
  attempt: z.number().int().min(1),
  /** The run reached `maxModelCalls`: call without tools, the answer ends the run. */
  withoutTools: z.boolean().default(false),
  /** The session's tool policy overrides; they only make the agent's policy safer. */
  toolPolicy: toolPolicyOverridesSchema.nullish(),
  /** A subagent's run: the delegating session, whose subjects carry the deltas. */
  parentSessionId: z.string().min(1).nullish(),
});
/** A validated `model.call` input; see {@link modelCallInputSchema}. */
export interface ModelCallInput {
  readonly sessionId: string;
  readonly runId: string;
  /** Agent name; undefined = the host's default agent. */
  readonly agent: string | undefined;
  /** Model spec; undefined = the agent's model. */
  readonly model: string | undefined;
  /** Transcript entries the request is built from (indexes 0 … transcriptLength − 1). */
  readonly transcriptLength: number;
  /** 1-based index of the model call within the run. */
  readonly modelCallIndex: number;
  /** 1-based attempt of this model call (the run machine's retries). */
  readonly attempt: number;
  /** Call without tools: the run reached `maxModelCalls`. */
  readonly withoutTools: boolean;
  /** The session's tool policy overrides; undefined = none. */
  readonly toolPolicy: ToolPolicyOverrides | undefined;
  /** A subagent's run: the session that delegated to it; undefined = none. */
  readonly parentSessionId: string | undefined;
}

/**
 * A tool call the model asked for.
 *
 * Shape: `{ toolCallId, toolName, input: string, effectClass, decision, approvalTimeoutMs? }`.
 * `input` is the arguments JSON text as the model wrote it (possibly empty or
 * invalid: the `tool.execute` handler validates it); `effectClass` is the
 * tool's (`unclassified` for a tool the agent does not have); `decision` the
 * tool policy's (agent policy and session overrides); `approvalTimeoutMs` the
 * agent's, for a call that asks.
 */
export interface ModelToolCall {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly input: string;
  readonly effectClass: ToolEffectClass;
  readonly decision: ToolPolicyDecision;
  readonly approvalTimeoutMs?: number;
  /** For a call of a subagent: the agent its session runs (`<parent>--<subagent>`). */
  readonly subagent?: string;
}

/**
 * Output of the `model.call` effect (`effect.completed.output`), plain data.
 *
 * Shape: `{ text, reasoning?, finishReason, usage: { inputTokens, outputTokens }, toolCalls, cancelled? }`.
 * `finishReason` is the AI SDK's (`stop`, `length`, `content-filter`,
 * `tool-calls`, `error`, `interrupted`, `other`) or `cancelled`; token counts are
 * whole numbers ≥ 0 (0 when the provider reported none).
 */
export interface ModelCallResult {
  /** The answer text (what streamed before the cancellation, when cancelled). */
  readonly text: string;
  /** Reasoning text, when the model streamed any. */
  readonly reasoning?: string;
  readonly finishReason: string;
  readonly usage: Usage;
  readonly toolCalls: ModelToolCall[];
  /** Present (true) only when the call was cancelled with `EffectCancelledError`. */
  readonly cancelled?: true;
}

/**
 * One streamed piece of a model call, handed to `publishDelta` as it arrives
 * (provisional: not journaled, not in snapshots; the effect's result is what
 * counts).
 *
 * Shape: `{ sessionId, parentSessionId?, runId, modelCallIndex, modelCallId, attempt, retryAttempt, effectId, kind, text, index }`.
 */
export interface ModelCallDelta {
  readonly sessionId: string;
  /** A subagent's run: the delegating session, whose subjects carry the delta. */
  readonly parentSessionId?: string;
  readonly runId: string;
  /** 1-based index of the model call within the run (`input.modelCallIndex`). */
  readonly modelCallIndex: number;
  /** `<runId>.m<modelCallIndex>`: the same for every attempt of the model call. */
  readonly modelCallId: string;
  /** Run of this effect on a host (`EffectContext.attempt`): grows when a host dies mid-stream and another re-runs it. */
  readonly attempt: number;
  /** The run machine's retry attempt of the model call (`input.attempt`). */
  readonly retryAttempt: number;
  /** The effect id (`<runId>.m<modelCallIndex>.a<retryAttempt>` from the run machine). */
  readonly effectId: string;
  readonly kind: "text" | "reasoning";
  readonly text: string;
  /** 0-based counter of deltas within this run of the effect (text and reasoning together). */
  readonly index: number;
}

/**
 * Validates the input of a `model.call` effect.
 *
 * @param input - the effect input as the host hands it over.
 * @returns the input with `agent` / `model` `null` turned into `undefined`.
 * @throws TroupeError `internal` (not retryable) when the input does not match {@link modelCallInputSchema}.
 */
export function parseModelCallInput(input: unknown): ModelCallInput {
  const parsed = modelCallInputSchema.safeParse(input);
  if (!parsed.success) {
    throw new TroupeError(
      "internal",
      `invalid model.call input: ${z.prettifyError(parsed.error)}`,
      {
        details: {
          issues: parsed.error.issues.map((issue) => ({
            path: issue.path.map(String),
            message: issue.message,
          })),
        },
      },
    );
  }
  return {
    ...parsed.data,
    agent: parsed.data.agent ?? undefined,
    model: parsed.data.model ?? undefined,
    toolPolicy: parsed.data.toolPolicy ?? undefined,
    parentSessionId: parsed.data.parentSessionId ?? undefined,
  };
}
