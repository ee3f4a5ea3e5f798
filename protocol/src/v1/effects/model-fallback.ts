import { z } from "zod";

/**
 * The most models an agent's fallback chain holds (`model: [primary, …]`): the
 * primary and up to four fallbacks.
 */
export const MAX_MODEL_CHAIN_LENGTH = 5;

/**
 * A model as events name it: the spec string the agent gave
 * (`anthropic:claude-sonnet-4-5`), or `<provider>:<modelId>` of a model object
 * (`troupe.scripted:script`). 1 to 256 characters.
 */
export const modelLabelSchema = z.string().min(1).max(256);

/**
 * Where a failed `model.call` stood in its agent's fallback chain: the
 * `details` the model-call handler adds to a model error (`model_error`,
 * `model_timeout`) of `effect.failed`, so the run machine decides whether a
 * next model exists from the journaled result alone (no host setting is read
 * at processing time, docs/decisions/0008 and 0042). Unknown detail fields are
 * ignored; a result without these fields never falls back.
 *
 * Shape: `{ modelIndex: number (whole, 0 to 4), models: string[] (1 to 5
 * labels, the chain in order) }`; `modelIndex` < `models.length`.
 */
export const modelChainPositionSchema = z
  .object({
    /** 0-based index of the model that failed (0 = the primary). */
    modelIndex: z
      .number()
      .int()
      .min(0)
      .max(MAX_MODEL_CHAIN_LENGTH - 1),
    /** The chain as the host that served the call knows it, as labels. */
    models: z.array(modelLabelSchema).min(1).max(MAX_MODEL_CHAIN_LENGTH),
  })
  .refine((position) => position.modelIndex < position.models.length, {
    error: "modelIndex must be an index of models",
  });
/** See {@link modelChainPositionSchema}. */
export type ModelChainPosition = z.infer<typeof modelChainPositionSchema>;
