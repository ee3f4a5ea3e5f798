import { z } from "zod";
import { actorIdSchema } from "@troupe/addressing";
import { identifierSchema } from "../field-schemas.js";

/**
 * `session.created` — a session received its first message and exists.
 *
 * Shape: `{ sessionId: string, agent?: string, forkedFrom?: { sessionId: string }, metadata?: Record<string, unknown> }`.
 */
export const sessionCreatedSchema = z.object({
  sessionId: actorIdSchema,
  agent: z.string().min(1).optional(),
  forkedFrom: z.object({ sessionId: actorIdSchema }).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
/** Payload of `session.created`. */
export type SessionCreated = z.infer<typeof sessionCreatedSchema>;

/**
 * `session.idle` — the session has no run in progress and nothing queued.
 *
 * Shape: `{ sessionId: string, lastRunId?: string }`.
 */
export const sessionIdleSchema = z.object({
  sessionId: actorIdSchema,
  lastRunId: identifierSchema.optional(),
});
/** Payload of `session.idle`. */
export type SessionIdle = z.infer<typeof sessionIdleSchema>;

/**
 * `session.closed` — the session ended (`session.close`); it refuses new
 * messages from now on.
 *
 * Shape: `{ sessionId: string, lastRunId?: string }`.
 */
export const sessionClosedSchema = z.object({
  sessionId: actorIdSchema,
  lastRunId: identifierSchema.optional(),
});
/** Payload of `session.closed`. */
export type SessionClosed = z.infer<typeof sessionClosedSchema>;
