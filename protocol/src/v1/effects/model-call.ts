import { z } from "zod";
import { MAX_TOOL_CALL_ID_LENGTH, identifierSchema, toolCallIdSchema } from "../field-schemas.js";
import { usageSchema } from "../events/run-events.js";
import { toolEffectClassSchema } from "../tool-effect-class.js";
import { toolPolicyDecisionSchema, toolPolicyOverridesSchema } from "../tool-policy.js";
import { nullAsAbsent } from "./null-as-absent.js";
import { MAX_MODEL_CHAIN_LENGTH, modelLabelSchema } from "./model-fallback.js";
import { budgetWarningSchema } from "../events/budget-events.js";
import { compactionReasonSchema, compactionResultSchema } from "../compaction/compaction-result.js";
import { transcriptBaseSchema } from "../fork/transcript-base.js";
import { agentDefinitionPinSchema, usedAgentDefinitionSchema } from "./agent-definition-pin.js";

/**
 * Name of the effect that calls the model for one step of a run: requested by
 * the run machine (`run/<sessionId>`), handled by the agent host
 * (`@troupe/agents`).
 */
export const MODEL_CALL_EFFECT = "model.call";

/** The longest tool call id accepted from a model, in characters (see `toolCallIdSchema`). */
export { MAX_TOOL_CALL_ID_LENGTH };

/**
 * Input of the `model.call` effect, as the run machine requests it. The handler
 * reads the first `transcriptLength` entries of the session's transcript,
 * builds the request for the agent and model, streams it (publishing
 * `run.delta` events with `modelCallId` `<runId>.m<modelCallIndex>`) and
 * returns a {@link ModelCallOutput}. `null` reads as absent.
 *
 * `retry` was called `attempt` in earlier releases; an input stored under
 * that name (a request still pending across an upgrade) reads as `retry`.
 *
 * Shape: `{ sessionId, runId, agent?, model?, transcriptLength (entries, 0+),
 * modelCallIndex (1+), retry (1+), withoutTools (default false), toolPolicy?
 * ({ ask?, deny? } tool-name patterns), parentSessionId?, parentRunId?,
 * modelIndex? (0 to 4, absent = 0), definition? ({ hash, version? }) }`.
 */
export const modelCallInputSchema = nullAsAbsent(
  z.preprocess(
    retryFromAttempt,
    z.object({
      sessionId: identifierSchema,
      runId: identifierSchema,
      /** Agent to run; absent = the host's default agent. */
      agent: z.string().min(1).optional(),
      /** Model spec to call; absent = the agent's model. */
      model: z.string().min(1).optional(),
      /** The request is built from transcript entries `0 … transcriptLength − 1`. */
      transcriptLength: z.number().int().nonnegative(),
      /** 1-based index of the model call within the run. */
      modelCallIndex: z.number().int().min(1),
      /**
       * The run machine's try of this model call, 1-based: 1 for the first call,
       * 2 for its first retry after a retryable error, and so on.
       */
      retry: z.number().int().min(1),
      /** The run reached `maxModelCalls`: call without tools; the answer ends the run. */
      withoutTools: z.boolean().default(false),
      /**
       * The session's tool policy overrides (from `run.start`); the handler
       * combines them with the agent's policy to decide each call (the safer wins).
       */
      toolPolicy: toolPolicyOverridesSchema.optional(),
      /** A subagent's run: the delegating session, whose subjects carry the deltas. */
      parentSessionId: identifierSchema.optional(),
      /**
       * A subagent's run: the delegating run of `parentSessionId` (docs/decisions/0041),
       * whose `run` spend budget the call counts against too. Absent for a
       * subagent session created before the field existed (no parent-run budget).
       */
      parentRunId: identifierSchema.optional(),
      /**
       * 0-based index of the model to call in the agent's fallback chain
       * (docs/decisions/0042); absent = 0, the primary. Ignored when `model` is set.
       */
      modelIndex: z
        .number()
        .int()
        .min(0)
        .max(MAX_MODEL_CHAIN_LENGTH - 1)
        .optional(),
      /**
       * Index of the session's latest `summary` entry (docs/decisions/0040): the handler
       * reads from that summary's `through` on instead of from entry 0.
       * Absent = no compaction yet.
       */
      summaryIndex: z.number().int().nonnegative().optional(),
      /** `manual`: compact before calling, whatever the budget (`session.compact`). */
      compact: compactionReasonSchema.optional(),
      /**
       * A forked session's shared prefix (docs/decisions/0043): entries below the last
       * segment's length are read from the sessions it names; absent = no fork.
       */
      transcriptBase: transcriptBaseSchema.optional(),
      /**
       * The agent definition the run is pinned to (docs/decisions/0055), from its
       * first model call's output; absent for a run's first call (the handler
       * pins the definition it serves then).
       */
      definition: agentDefinitionPinSchema.optional(),
    }),
  ),
);
/** See {@link modelCallInputSchema}. */
export type ModelCallInput = z.infer<typeof modelCallInputSchema>;

/**
 * A tool call the model asked for, as the `model.call` handler reports it.
 * `input` is the raw arguments text the model produced (the `tool.execute`
 * handler parses and validates it); `effectClass` comes from the agent's tool
 * definition (`unclassified` when absent or for a tool the agent does not
 * have); `decision` is the tool policy's (agent policy and session overrides;
 * absent = `allow`); `approvalTimeoutMs` is the agent's, for a call that asks.
 *
 * Shape: `{ toolCallId (1 to 256 characters, no whitespace or control
 * characters: `toolCallIdSchema`), toolName, input: string,
 * effectClass (default "unclassified"), decision?: "allow" | "ask" | "deny",
 * approvalTimeoutMs? (ms, whole, 1+), subagent? }`.
 */
export const modelToolCallSchema = nullAsAbsent(
  z.object({
    /** The model's id of the call, distinct within its response; what `tool.approve` names. */
    toolCallId: toolCallIdSchema,
    toolName: z.string().min(1),
    /** The arguments exactly as the model wrote them (usually JSON, possibly empty or invalid). */
    input: z.string(),
    effectClass: toolEffectClassSchema.default("unclassified"),
    decision: toolPolicyDecisionSchema.optional(),
    /** For `decision: "ask"`: how long the approval may wait, in ms; absent = 24 h. */
    approvalTimeoutMs: z.number().int().min(1).optional(),
    /**
     * Set when the tool is a subagent: the agent (as the host registered it,
     * `<parent>--<subagent>`) that runs the call's `task` in a session of its own.
     */
    subagent: z.string().min(1).optional(),
  }),
);
/** See {@link modelToolCallSchema}; `effectClass` is always present after parsing. */
export type ModelToolCall = z.infer<typeof modelToolCallSchema>;

/**
 * Output of the `model.call` effect (`effect.completed.output`), plain data.
 * After `troupe.cancelEffect` the handler returns what streamed so far with
 * `cancelled: true` and `finishReason: "cancelled"` (its tool calls are then
 * ignored). `null` reads as absent.
 *
 * Shape: `{ text, reasoning?, finishReason, usage: { inputTokens, outputTokens },
 * toolCalls (default [], ids distinct), cancelled?, model?, modelIndex?, definition? }`. `finishReason` is the AI
 * SDK's (`stop`, `length`, `content-filter`, `tool-calls`, `error`, `other`) or
 * `cancelled`; token counts are whole numbers ≥ 0 (0 when the provider
 * reported none).
 */
export const modelCallOutputSchema = nullAsAbsent(
  z.object({
    /** The answer text (partial when cancelled). */
    text: z.string(),
    /** Reasoning text, when the model streamed any. */
    reasoning: z.string().optional(),
    finishReason: z.string(),
    usage: usageSchema,
    /** Tool calls the model asked for, in its order; each runs as a tool call actor. */
    toolCalls: z
      .array(modelToolCallSchema)
      .superRefine((calls, context) => {
        const seen = new Set<string>();
        calls.forEach((call, index) => {
          if (seen.has(call.toolCallId)) {
            context.addIssue({
              code: "custom",
              path: [index, "toolCallId"],
              message: `tool call id "${call.toolCallId}" repeats within the response`,
            });
          }
          seen.add(call.toolCallId);
        });
      })
      .default([]),
    cancelled: z.boolean().optional(),
    /** The model that answered, as a label (spec string or `<provider>:<modelId>`). */
    model: modelLabelSchema.optional(),
    /** Its 0-based index in the agent's fallback chain (docs/decisions/0042). */
    modelIndex: z.number().int().min(0).optional(),
    /**
     * Spend budgets this call's settled usage brought to their warning
     * threshold (docs/decisions/0041); the run machine publishes one `budget.warning`
     * for each. Absent = none.
     */
    budgetWarnings: z.array(budgetWarningSchema).optional(),
    /** The handler compacted the transcript before calling (docs/decisions/0040). */
    compaction: compactionResultSchema.optional(),
    /**
     * The agent definition the call was made under (docs/decisions/0055): the
     * run keeps it as its pin; `migratedFrom` when a declared migration moved
     * the run onto it. Absent from handlers of earlier releases.
     */
    definition: usedAgentDefinitionSchema.optional(),
  }),
);
/** See {@link modelCallOutputSchema}; `toolCalls` is always present after parsing. */
export type ModelCallOutput = z.infer<typeof modelCallOutputSchema>;

/** An input stored by an earlier release names `retry` `attempt`: read it as `retry`. */
function retryFromAttempt(value: unknown): unknown {
  if (typeof value !== "object" || value === null || "retry" in value) return value;
  const { attempt, ...rest } = value as Record<string, unknown>;
  return attempt === undefined ? value : { ...rest, retry: attempt };
}
