import { z } from "zod";
import { usedAgentDefinitionSchema } from "../effects/agent-definition-pin.js";
import { identifierSchema, tokenCountSchema } from "../field-schemas.js";
import { priorityClassSchema } from "../priority-class.js";

/**
 * Tokens used, as the model provider reports them.
 *
 * Shape: `{ inputTokens: number, outputTokens: number }` (whole numbers, 0 or more).
 */
export const usageSchema = z.object({
  inputTokens: tokenCountSchema,
  outputTokens: tokenCountSchema,
});
/** See {@link usageSchema}. */
export type Usage = z.infer<typeof usageSchema>;

/**
 * `run.started` — a run (one turn of the agent loop) began.
 *
 * Shape: `{ runId: string, messageId?: string, agent?: string, priority?: "interactive" | "batch" }`;
 * `messageId` is the message that started it; `priority` its scheduling class
 * (docs/decisions/0057), absent for `default`.
 */
export const runStartedSchema = z.object({
  runId: identifierSchema,
  messageId: identifierSchema.optional(),
  agent: z.string().min(1).optional(),
  priority: priorityClassSchema.optional(),
});
/** Payload of `run.started`. */
export type RunStarted = z.infer<typeof runStartedSchema>;

/**
 * `run.delta` — streamed text of a model call, published while it streams (not
 * journaled). `attempt` is the model call's *stream attempt*: it grows with
 * every stream of the same `modelCallId` — a retry of the model call by the
 * run, or a re-run by another host after a crash — and clients drop the
 * provisional text of lower stream attempts. (Wire fields are never renamed:
 * in code the number is called `streamAttempt`.)
 *
 * Shape: `{ runId: string, modelCallId?: string, attempt: number (1+), kind: "text" | "reasoning", text: string, index?: number (0+) }`.
 */
export const runDeltaSchema = z.object({
  runId: identifierSchema,
  modelCallId: identifierSchema.optional(),
  attempt: z.number().int().min(1),
  kind: z.enum(["text", "reasoning"]),
  text: z.string(),
  /** Position of the delta within its stream attempt, from 0 (a field added after the first release). */
  index: z.number().int().min(0).optional(),
});
/** Payload of `run.delta`. */
export type RunDelta = z.infer<typeof runDeltaSchema>;

/**
 * `run.completed` — the run ended with an answer.
 *
 * Shape: `{ runId: string, text: string, usage: Usage, model?: string,
 * definition?: { hash, version?, migratedFrom? } }`;
 * `usage` sums every model call of the run; `model` names the model that gave
 * the answer (a label, see docs/capabilities/fallback-models.md; absent in events of
 * earlier releases).
 */
export const runCompletedSchema = z.object({
  runId: identifierSchema,
  text: z.string(),
  usage: usageSchema,
  model: z.string().min(1).max(256).optional(),
  /** Transcript entries after the run (a fork point); absent in older events. */
  transcriptLength: z.number().int().nonnegative().optional(),
  /** The agent definition the run was pinned to (docs/decisions/0055); absent in older events. */
  definition: usedAgentDefinitionSchema.optional(),
});
/** Payload of `run.completed`. */
export type RunCompleted = z.infer<typeof runCompletedSchema>;

/**
 * `run.failed` — the run ended with an error.
 *
 * Shape: `{ runId: string, code: string, message: string }`.
 */
export const runFailedSchema = z.object({
  runId: identifierSchema,
  code: z.string().min(1),
  message: z.string(),
  /** Transcript entries after the run (a fork point); absent in older events. */
  transcriptLength: z.number().int().nonnegative().optional(),
});
/** Payload of `run.failed`. */
export type RunFailed = z.infer<typeof runFailedSchema>;

/**
 * `run.cancelled` — the run was cancelled (`run.cancel`, an interrupting message,
 * or its parent's cancellation).
 *
 * Shape: `{ runId: string, partialText?: string, usage: Usage, reason?: string }`.
 */
export const runCancelledSchema = z.object({
  runId: identifierSchema,
  partialText: z.string().optional(),
  usage: usageSchema,
  reason: z.string().optional(),
  /** Transcript entries after the run (a fork point); absent in older events. */
  transcriptLength: z.number().int().nonnegative().optional(),
});
/** Payload of `run.cancelled`. */
export type RunCancelled = z.infer<typeof runCancelledSchema>;
