import { z } from "zod";
import { actorIdSchema } from "@troupe/addressing";
import { identifierSchema } from "../field-schemas.js";

/**
 * `message.accepted` — the session admitted a message.
 *
 * Shape: `{ messageId: string, type: string, clientMessageId?: string, runId?: string, queued?: boolean }`.
 * `type` is the message type (`user.message`, …); `runId` the run it started or
 * steered; `queued` is `true` when it waits for the current run to end.
 */
export const messageAcceptedSchema = z.object({
  messageId: identifierSchema,
  type: z.string().min(1),
  clientMessageId: actorIdSchema.optional(),
  runId: identifierSchema.optional(),
  queued: z.boolean().optional(),
});
/** Payload of `message.accepted`. */
export type MessageAccepted = z.infer<typeof messageAcceptedSchema>;

/**
 * `message.duplicate` — the session saw this message (same `clientMessageId`)
 * before and ignored the repeat.
 *
 * Shape: `{ messageId: string, type?: string, clientMessageId?: string, originalMessageId?: string }`.
 */
export const messageDuplicateSchema = z.object({
  messageId: identifierSchema,
  type: z.string().min(1).optional(),
  clientMessageId: actorIdSchema.optional(),
  originalMessageId: identifierSchema.optional(),
});
/** Payload of `message.duplicate`. */
export type MessageDuplicate = z.infer<typeof messageDuplicateSchema>;

/**
 * `message.rejected` — a message was refused (undecodable, invalid, too large, or
 * refused by the session); it went to the dead-letter subject and state is
 * unchanged.
 *
 * Shape: `{ reason: string, code: string, messageId?: string, type?: string, issues?: unknown[] }`.
 * `reason` is a sentence for humans, `code` an error code (`decode_failed`, …),
 * `issues` the zod issues when validation failed.
 */
export const messageRejectedSchema = z.object({
  reason: z.string(),
  code: z.string().min(1),
  messageId: identifierSchema.optional(),
  type: z.string().optional(),
  issues: z.array(z.unknown()).optional(),
});
/** Payload of `message.rejected`. */
export type MessageRejected = z.infer<typeof messageRejectedSchema>;
