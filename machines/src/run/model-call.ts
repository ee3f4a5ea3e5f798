import type { Usage } from "@troupe/protocol";

/** Name of the effect handler that calls the model (registered by the host for the `run` kind). */
export const MODEL_CALL_EFFECT = "model.call";

/**
 * Input of the `model.call` effect. The handler reads the first
 * `transcriptLength` entries of the session's transcript log, builds the
 * request for the agent and model, streams it (publishing `run.delta` events with
 * `modelCallId` `<runId>.m<modelCallIndex>`) and returns a {@link ModelCallOutput}.
 */
export interface ModelCallInput {
  readonly sessionId: string;
  readonly runId: string;
  /** Agent to run; absent = the host's default agent. */
  readonly agent?: string;
  /** Model to call; absent = the agent's model. */
  readonly model?: string;
  /** Transcript entries the request is built from (indexes 0 … transcriptLength − 1). */
  readonly transcriptLength: number;
  /** 1-based index of the model call within the run. */
  readonly modelCallIndex: number;
  /** 1-based attempt of this model call (retries of retryable errors). */
  readonly attempt: number;
  /** Call without tools: the run reached `maxModelCalls` and this answer ends it. */
  readonly withoutTools: boolean;
}

/**
 * Output of the `model.call` effect (`effect.completed.output`). After
 * `troupe.cancelEffect`, the handler returns what it has so far with
 * `cancelled: true`.
 */
export interface ModelCallOutput {
  /** The answer text (partial when cancelled). */
  readonly text: string;
  readonly reasoning?: string;
  /** The provider's finish reason (`stop`, `length`, `tool-calls`, …). */
  readonly finishReason: string;
  readonly usage: Usage;
  /** Tool calls the model asked for; run by tool actors once they exist (ignored for now). */
  readonly toolCalls?: readonly unknown[];
  readonly cancelled?: boolean;
}

const isTokenCount = (value: unknown) =>
  typeof value === "number" && Number.isInteger(value) && value >= 0;

/**
 * Reads an effect output as a {@link ModelCallOutput}, checking its shape so a
 * malformed result fails the run instead of throwing.
 *
 * @param output - `effect.completed.output` of a `model.call`.
 * @returns the output, or undefined when it is not a model call output.
 */
export function readModelCallOutput(output: unknown): ModelCallOutput | undefined {
  if (typeof output !== "object" || output === null) return undefined;
  const { text, finishReason, usage } = output as Record<string, unknown>;
  if (typeof text !== "string" || typeof finishReason !== "string") return undefined;
  if (typeof usage !== "object" || usage === null) return undefined;
  const { inputTokens, outputTokens } = usage as Record<string, unknown>;
  if (!isTokenCount(inputTokens) || !isTokenCount(outputTokens)) return undefined;
  return output as ModelCallOutput;
}
