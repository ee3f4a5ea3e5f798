import { z } from "zod";
import { usageSchema } from "../events/run-events.js";

/**
 * Why a model call compacted the transcript first: its prompt would exceed the
 * agent's token budget (`budget`), or `session.compact` asked for it (`manual`).
 */
export const compactionReasonSchema = z.enum(["budget", "manual"]);
/** See {@link compactionReasonSchema}. */
export type CompactionReason = z.infer<typeof compactionReasonSchema>;

/**
 * The `compaction` part of a `model.call` output (docs/decisions/0040): the handler
 * summarised entries `0 … through − 1` before calling the model, and the model
 * call's prompt already used the summary. The run machine appends it as a
 * `summary` transcript entry (before the call's own entries) and emits
 * `session.compacted`. Journaled with the output, so a host that dies mid-way
 * re-runs the whole call and only one result counts.
 *
 * Shape: `{ text, through (entries, 1+), tokensBefore, tokensAfter (tokens),
 * reason: "budget" | "manual", model?, usage: { inputTokens, outputTokens } }`.
 */
export const compactionResultSchema = z.object({
  /** The summary text. */
  text: z.string(),
  through: z.number().int().min(1),
  tokensBefore: z.number().int().nonnegative(),
  tokensAfter: z.number().int().nonnegative(),
  reason: compactionReasonSchema,
  /** The model that wrote the summary (`provider:modelId`). */
  model: z.string().min(1).optional(),
  /** Tokens the summarising call used (not in the run's usage; for spend accounting). */
  usage: usageSchema,
});
/** See {@link compactionResultSchema}. */
export type CompactionResult = z.infer<typeof compactionResultSchema>;
