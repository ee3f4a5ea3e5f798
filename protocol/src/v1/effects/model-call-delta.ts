import { z } from "zod";
import { identifierSchema } from "../field-schemas.js";

/**
 * One streamed piece of a `model.call`, as the handler hands it to its
 * publisher while the model streams (provisional: not journaled, not in
 * snapshots; the effect's output is what counts). The host publishes it as a
 * `run.delta` event on the session's subjects (the parent session's for a
 * subagent's run).
 *
 * Shape: `{ sessionId, parentSessionId?, runId, modelCallIndex (1+), modelCallId,
 * streamAttempt (1+), retry (1+), effectId, kind: "text" | "reasoning", text,
 * index (0+) }`.
 */
export const modelCallDeltaSchema = z.object({
  sessionId: identifierSchema,
  /** A subagent's run: the delegating session, whose subjects carry the delta. */
  parentSessionId: identifierSchema.optional(),
  runId: identifierSchema,
  /** 1-based index of the model call within the run (the input's `modelCallIndex`). */
  modelCallIndex: z.number().int().min(1),
  /** `<runId>.m<modelCallIndex>`: the same for every retry and stream attempt of the model call. */
  modelCallId: identifierSchema,
  /**
   * The stream attempt, 1-based: grows with every stream of this model call,
   * across the run machine's retries and hosts' re-runs, so a client keeps the
   * text of the highest one. Published as `run.delta`'s `attempt`.
   */
  streamAttempt: z.number().int().min(1),
  /** The run machine's try of the model call (the input's `retry`). */
  retry: z.number().int().min(1),
  /** The effect id (`<runId>.m<modelCallIndex>.a<retry>` from the run machine). */
  effectId: identifierSchema,
  kind: z.enum(["text", "reasoning"]),
  text: z.string(),
  /** 0-based counter of deltas within this run of the effect (text and reasoning together). */
  index: z.number().int().min(0),
});
/** See {@link modelCallDeltaSchema}. */
export type ModelCallDelta = z.infer<typeof modelCallDeltaSchema>;
