import { z } from "zod";

/**
 * A compaction summary in the transcript (docs/capabilities/compaction.md): the
 * text a model wrote to stand for entries `0 … through − 1`, which stay in the
 * log unchanged. A model call's prompt is then the agent's instructions, the
 * latest summary (as context) and the entries from `through` on, other
 * summaries left out. `through` never falls between an assistant entry's tool
 * calls and their `tool` results.
 *
 * Token counts are estimates of the whole prompt (see `estimateTextTokens` in
 * `@troupe/agents`), before and after the compaction, in tokens.
 *
 * Shape: `{ role: "summary", text: string, through: number (entries, 1+),
 * tokensBefore: number (tokens, 0+), tokensAfter: number (tokens, 0+),
 * runId?: string, model?: string }`.
 */
export const summaryTranscriptEntrySchema = z.object({
  role: z.literal("summary"),
  text: z.string(),
  /** Entries `0 … through − 1` are summarised; the prompt keeps the entries from `through` on. */
  through: z.number().int().min(1),
  /** Estimated prompt tokens before the compaction. */
  tokensBefore: z.number().int().nonnegative(),
  /** Estimated prompt tokens after it. */
  tokensAfter: z.number().int().nonnegative(),
  /** The run whose model call compacted, when one did. */
  runId: z.string().min(1).optional(),
  /** The model that wrote the summary (`provider:modelId`). */
  model: z.string().min(1).optional(),
});
/** See {@link summaryTranscriptEntrySchema}. */
export type SummaryTranscriptEntry = z.infer<typeof summaryTranscriptEntrySchema>;
