import { z } from "zod";

/**
 * How a tool call's execution ended, as the tool actor reports it
 * (`tool.finished`) and the `tool.execute` effect returns it:
 *
 * - `succeeded` — the tool returned; `content` is its result.
 * - `failed` — the tool threw (or its handler crashed); `content` says why.
 * - `invalid_arguments` — the model's arguments did not parse or match the
 *   tool's schema (or the tool is unknown); the tool did not run.
 * - `outcome_unknown` — a call that runs at most once may have started but left
 *   no result; it is not run again.
 */
export const toolExecutionStatusSchema = z.enum([
  "succeeded",
  "failed",
  "invalid_arguments",
  "outcome_unknown",
]);
/** See {@link toolExecutionStatusSchema}. */
export type ToolExecutionStatus = z.infer<typeof toolExecutionStatusSchema>;

/**
 * How a tool call ended, as the transcript records it for the model: a
 * {@link ToolExecutionStatus}, or one the run decides itself —
 * `skipped` (an earlier write of the same response did not succeed, so this
 * write never started) or `cancelled` (the run was cancelled before the call
 * had a result).
 */
export const toolCallStatusSchema = z.enum([
  ...toolExecutionStatusSchema.options,
  "skipped",
  "cancelled",
]);
/** See {@link toolCallStatusSchema}. */
export type ToolCallStatus = z.infer<typeof toolCallStatusSchema>;
