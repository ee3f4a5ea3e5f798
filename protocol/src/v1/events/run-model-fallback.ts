import { z } from "zod";
import { identifierSchema } from "../field-schemas.js";
import { modelLabelSchema } from "../effects/model-fallback.js";

/**
 * `run.model_fallback` — the current model of a run failed its tries with an
 * availability error (HTTP 408, 409, 429, 5xx, 529 overloaded, a network
 * failure, or a model timeout), and the run moves on to the next model of the
 * agent's chain, starting again at try 1. The run stays on that model for its
 * later model calls; the next run starts with the primary again
 * (docs/capabilities/fallback-models.md).
 *
 * Shape: `{ runId, modelCallIndex (1+), fromIndex (0+), toIndex (1+), from:
 * string, to: string, code: string, message: string, statusCode?: number }` —
 * `from` / `to` are model labels, `code` / `message` / `statusCode` the last
 * error of `from`.
 */
export const runModelFallbackSchema = z.object({
  runId: identifierSchema,
  /** 1-based index of the model call within the run. */
  modelCallIndex: z.number().int().min(1),
  fromIndex: z.number().int().min(0),
  toIndex: z.number().int().min(1),
  from: modelLabelSchema,
  to: modelLabelSchema,
  code: z.string().min(1),
  message: z.string(),
  /** HTTP status of the last failure of `from`, when it had one. */
  statusCode: z.number().int().optional(),
});
/** Payload of `run.model_fallback`. */
export type RunModelFallback = z.infer<typeof runModelFallbackSchema>;
