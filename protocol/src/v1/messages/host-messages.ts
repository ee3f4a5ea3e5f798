import { z } from "zod";
import { wireErrorSchema } from "@troupe/addressing";
import { identifierSchema, timestampMsSchema } from "../field-schemas.js";

/**
 * `timer.fired` — internal: a durable timer of the actor reached its deadline.
 * Only hosts publish it, into the actor's own inbox.
 *
 * Shape: `{ timerId: string, deadlineMs?: number, advancedMs?: number, event?: { type: string, … } }`.
 * `deadlineMs` (Unix ms) tells a re-armed timer from the one that fired;
 * `advancedMs` is how far a test clock brought the timer forward (the test
 * kit's `clock.advance`; absent otherwise), so the step can tell a timer fired
 * early by a clock ahead of stream time (docs/decisions/0050);
 * `event` is the machine event the timer delivers, when the host does not keep
 * it itself.
 */
export const timerFiredSchema = z.object({
  timerId: identifierSchema,
  deadlineMs: timestampMsSchema.optional(),
  advancedMs: z.number().int().nonnegative().optional(),
  event: z.looseObject({ type: z.string().min(1) }).optional(),
});
/** Payload of `timer.fired`. */
export type TimerFired = z.infer<typeof timerFiredSchema>;

/**
 * `effect.completed` — internal: an effect the actor requested (model call, tool,
 * …) finished; `output` is its result as plain data, absent when it returned
 * nothing. Only hosts publish it, into the actor's own inbox.
 *
 * Shape: `{ effectId: string, output?: unknown }`.
 */
export const effectCompletedSchema = z.object({
  effectId: identifierSchema,
  output: z.unknown().optional(),
});
/** Payload of `effect.completed`. */
export type EffectCompleted = z.infer<typeof effectCompletedSchema>;

/**
 * `effect.failed` — internal: an effect the actor requested failed after its
 * retries. Only hosts publish it, into the actor's own inbox.
 *
 * Shape: `{ effectId: string, error: WireError }`.
 */
export const effectFailedSchema = z.object({
  effectId: identifierSchema,
  error: wireErrorSchema,
});
/** Payload of `effect.failed`. */
export type EffectFailed = z.infer<typeof effectFailedSchema>;
