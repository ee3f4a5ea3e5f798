import {
  toolEffectClassSchema,
  toolPolicyDecisionSchema,
  type ToolEffectClass,
  type ToolPolicyDecision,
  type ToolPolicyOverrides,
  type Usage,
} from "@troupe/protocol";

/** Name of the effect handler that calls the model (registered by the host for the `run` kind). */
export const MODEL_CALL_EFFECT = "model.call";

/** The longest tool call id accepted from a model, in characters (the protocol's identifier limit). */
export const MAX_TOOL_CALL_ID_LENGTH = 256;

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
  /**
   * The session's tool policy overrides (from `run.start`); the handler
   * combines them with the agent's policy to decide each call (the safer wins).
   */
  readonly toolPolicy?: ToolPolicyOverrides;
  /**
   * Set for a subagent's run: the session that delegated to it. The handler
   * publishes the call's `run.delta` events on that session's subjects.
   */
  readonly parentSessionId?: string;
}

/**
 * A tool call the model asked for, as the `model.call` handler reports it.
 * `input` is the raw arguments text the model produced (the tool call actor's
 * host parses and validates it); `effectClass` comes from the agent's tool
 * definition — absent, or for a tool the agent does not know, `unclassified`.
 */
export interface ModelToolCall {
  /** The model's id of the call: 1 to 256 characters, distinct within the run. */
  readonly toolCallId: string;
  readonly toolName: string;
  /** The arguments exactly as the model wrote them (usually JSON). */
  readonly input: string;
  /** Default `unclassified`. */
  readonly effectClass?: ToolEffectClass;
  /** The tool policy's decision for the call (the handler computes it); absent = `allow`. */
  readonly decision?: ToolPolicyDecision;
  /** For `decision: "ask"`: how long the approval may wait, in ms; absent = 24 h. */
  readonly approvalTimeoutMs?: number;
  /**
   * Set when the tool is a subagent: the agent (as the host registered it)
   * that runs the call's `task` in a session of its own.
   */
  readonly subagent?: string;
}

/** A {@link ModelToolCall} with its effect class settled. */
export type ClassifiedToolCall = ModelToolCall & { readonly effectClass: ToolEffectClass };

/**
 * Output of the `model.call` effect (`effect.completed.output`). After
 * `troupe.cancelEffect`, the handler returns what it has so far with
 * `cancelled: true` (its tool calls are then ignored).
 */
export interface ModelCallOutput {
  /** The answer text (partial when cancelled). */
  readonly text: string;
  readonly reasoning?: string;
  /** The provider's finish reason (`stop`, `length`, `tool-calls`, …). */
  readonly finishReason: string;
  readonly usage: Usage;
  /** Tool calls the model asked for, in its order; each runs as a tool call actor. */
  readonly toolCalls?: readonly ModelToolCall[];
  readonly cancelled?: boolean;
}

/** A model call output as the run machine uses it: `toolCalls` always present and classified. */
export type CheckedModelCallOutput = ModelCallOutput & {
  readonly toolCalls: readonly ClassifiedToolCall[];
};

const isTokenCount = (value: unknown) =>
  typeof value === "number" && Number.isInteger(value) && value >= 0;
const isToolCallId = (value: unknown): value is string =>
  typeof value === "string" && value.length > 0 && value.length <= MAX_TOOL_CALL_ID_LENGTH;

/**
 * Reads `toolCalls` of a model call output: well-formed calls with distinct
 * ids, each given its effect class (`unclassified` when absent).
 *
 * @returns the calls (`[]` when absent), or undefined when malformed.
 */
function readToolCalls(value: unknown): ClassifiedToolCall[] | undefined {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return undefined;
  const calls: ClassifiedToolCall[] = [];
  for (const call of value as unknown[]) {
    if (typeof call !== "object" || call === null) return undefined;
    const { toolCallId, toolName, input, effectClass, decision, approvalTimeoutMs, subagent } =
      call as Record<string, unknown>;
    if (subagent !== undefined && (typeof subagent !== "string" || subagent.length === 0)) {
      return undefined;
    }
    if (!isToolCallId(toolCallId) || calls.some((other) => other.toolCallId === toolCallId)) {
      return undefined;
    }
    if (typeof toolName !== "string" || toolName.length === 0 || typeof input !== "string") {
      return undefined;
    }
    const parsedClass = toolEffectClassSchema.safeParse(effectClass ?? "unclassified");
    if (!parsedClass.success) return undefined;
    const parsedDecision = toolPolicyDecisionSchema.optional().safeParse(decision);
    if (!parsedDecision.success) return undefined;
    if (
      approvalTimeoutMs !== undefined &&
      !(
        typeof approvalTimeoutMs === "number" &&
        Number.isInteger(approvalTimeoutMs) &&
        approvalTimeoutMs >= 1
      )
    ) {
      return undefined;
    }
    calls.push({
      toolCallId,
      toolName,
      input,
      effectClass: parsedClass.data,
      ...(parsedDecision.data === undefined ? {} : { decision: parsedDecision.data }),
      ...(approvalTimeoutMs === undefined ? {} : { approvalTimeoutMs }),
      ...(subagent === undefined ? {} : { subagent }),
    });
  }
  return calls;
}

/**
 * Checks an effect output against {@link ModelCallOutput} and says what is
 * wrong with it, so a malformed result fails the run (with that message)
 * instead of throwing.
 *
 * @param output - `effect.completed.output` of a `model.call`.
 * @returns `{ output }` normalised (see {@link CheckedModelCallOutput}), or `{ problem }` in words.
 */
export function checkModelCallOutput(
  output: unknown,
): { readonly output: CheckedModelCallOutput } | { readonly problem: string } {
  const shapeProblem = `${MODEL_CALL_EFFECT} returned an output without text, finishReason and usage`;
  if (typeof output !== "object" || output === null) return { problem: shapeProblem };
  const { text, finishReason, usage, toolCalls } = output as Record<string, unknown>;
  if (typeof text !== "string" || typeof finishReason !== "string")
    return { problem: shapeProblem };
  if (typeof usage !== "object" || usage === null) return { problem: shapeProblem };
  const { inputTokens, outputTokens } = usage as Record<string, unknown>;
  if (!isTokenCount(inputTokens) || !isTokenCount(outputTokens)) return { problem: shapeProblem };
  const calls = readToolCalls(toolCalls);
  if (calls === undefined) {
    return {
      problem:
        `${MODEL_CALL_EFFECT} returned malformed toolCalls: each needs a toolCallId ` +
        `(1 to ${MAX_TOOL_CALL_ID_LENGTH} characters, distinct within the response), ` +
        "a toolName, the input as text, a known effectClass, and a known decision " +
        "(allow, ask, deny) and a whole approvalTimeoutMs ≥ 1 when present",
    };
  }
  return { output: { ...(output as ModelCallOutput), toolCalls: calls } };
}

/**
 * Reads an effect output as a model call output (see {@link checkModelCallOutput}).
 *
 * @param output - `effect.completed.output` of a `model.call`.
 * @returns the normalised output, or undefined when it is not a model call output.
 */
export function readModelCallOutput(output: unknown): CheckedModelCallOutput | undefined {
  const checked = checkModelCallOutput(output);
  return "output" in checked ? checked.output : undefined;
}
