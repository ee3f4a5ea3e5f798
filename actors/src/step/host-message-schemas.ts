import { effectCompletedSchema, effectFailedSchema, timerFiredSchema } from "@troupe/protocol";
import type { MessageSchemas } from "@troupe/protocol";

/**
 * Messages the host itself puts into an actor's inbox: durable timer firings and
 * effect results. Every kind accepts them in addition to its own messages.
 */
export const hostMessageSchemas: MessageSchemas = {
  "timer.fired": timerFiredSchema,
  "effect.completed": effectCompletedSchema,
  "effect.failed": effectFailedSchema,
};
