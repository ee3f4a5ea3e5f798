import { z } from "zod";
import { actorIdSchema } from "@troupe/addressing";
import { identifierSchema } from "../field-schemas.js";
import { compactionReasonSchema } from "../compaction/compaction-result.js";
import { usageSchema } from "./run-events.js";

/**
 * `session.compacted` — a model call summarised the older part of the
 * session's transcript (docs/capabilities/compaction.md). The summary is the
 * transcript entry at `summaryIndex`; entries `0 … through − 1` stay in the log
 * but later prompts use the summary instead. Token counts are estimates of the
 * whole prompt, in tokens. Emitted once per compaction, even when the host died
 * during it (the journaled model call result carries it).
 *
 * Shape: `{ sessionId, runId, summaryIndex (entry index, 0+), through (entries, 1+),
 * tokensBefore, tokensAfter (tokens), reason: "budget" | "manual", model?,
 * usage: { inputTokens, outputTokens } }`.
 */
export const sessionCompactedSchema = z.object({
  sessionId: actorIdSchema,
  runId: identifierSchema,
  summaryIndex: z.number().int().nonnegative(),
  through: z.number().int().min(1),
  tokensBefore: z.number().int().nonnegative(),
  tokensAfter: z.number().int().nonnegative(),
  reason: compactionReasonSchema,
  model: z.string().min(1).optional(),
  /** Tokens the summarising call used. */
  usage: usageSchema,
});
/** Payload of `session.compacted`. */
export type SessionCompacted = z.infer<typeof sessionCompactedSchema>;
