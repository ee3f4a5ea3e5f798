import { z } from "zod";

/**
 * What running a tool may do to the world, declared with the tool; it decides
 * the order of a response's tool calls and how a crashed call is treated:
 *
 * - `read` — no effect; runs in parallel with the response's other calls and
 *   may be retried.
 * - `idempotent_write` — an effect that is safe to repeat; may be retried.
 * - `non_idempotent_write` — an effect that must happen at most once; a call
 *   that may have started but left no result is reported as outcome unknown.
 * - `unclassified` — the default: treated as a `non_idempotent_write`.
 *
 * Writes of one response (every class but `read`) run one at a time, in the
 * model's order.
 */
export const toolEffectClassSchema = z.enum([
  "read",
  "idempotent_write",
  "non_idempotent_write",
  "unclassified",
]);
/** See {@link toolEffectClassSchema}. */
export type ToolEffectClass = z.infer<typeof toolEffectClassSchema>;
