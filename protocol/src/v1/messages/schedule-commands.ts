import { z } from "zod";
import { actorIdSchema } from "@troupe/addressing";
import { commandNoteSchema, commandTextSchema, timestampMsSchema } from "../field-schemas.js";

// The commands a schedule actor (`schedule/<scheduleId>`) accepts on
// `troupe.schedule.<scheduleId>.in`. Strict like the session's public commands
// (docs/decisions/0012): an unknown field is refused by name.

/** What a schedule does with ticks it missed while no host ran it: see {@link scheduleCreateSchema}. */
export const catchUpPolicySchema = z.enum(["skip", "once"]);
/** See {@link catchUpPolicySchema}. */
export type CatchUpPolicy = z.infer<typeof catchUpPolicySchema>;

/** Default `misfireThresholdMs` of a schedule: 60,000 ms (Quartz's default misfire threshold). */
export const DEFAULT_MISFIRE_THRESHOLD_MS = 60_000;

/** Largest `misfireThresholdMs`: 7 days, in ms. */
export const MAX_MISFIRE_THRESHOLD_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * `schedule.create` — create the schedule this actor is: send `text` as a
 * `user.message` to session `sessionId` at every tick of `cron` (in `timezone`),
 * or once at `at`. Exactly one of `cron` and `at`.
 *
 * Shape: `{ sessionId: string (actor id), text: string (1 to 262,144 characters,
 * not blank), cron?: string (5 or 6 fields, croner syntax, ≤ 256 characters),
 * at?: number (Unix ms), timezone?: string (IANA, e.g. "Europe/Paris"; default
 * UTC), catchUp?: "skip" | "once" (default "skip"), misfireThresholdMs?: number
 * (ms, 0 to 604,800,000, default 60,000), agent?: string (actor id) }`.
 *
 * A tick whose firing comes more than `misfireThresholdMs` after its time
 * (hosts were down) is missed: `catchUp: "skip"` sends nothing for it,
 * `"once"` sends one message for all the ticks missed. A cron pattern or time
 * zone the schedule cannot read, or an `at` in the past, is refused with
 * `schedule.rejected` (docs/decisions/0044).
 */
export const scheduleCreateSchema = z
  .strictObject({
    sessionId: actorIdSchema,
    text: commandTextSchema,
    cron: z.string().min(1).max(256).optional(),
    at: timestampMsSchema.optional(),
    timezone: z.string().min(1).max(64).optional(),
    catchUp: catchUpPolicySchema.optional(),
    misfireThresholdMs: z.number().int().min(0).max(MAX_MISFIRE_THRESHOLD_MS).optional(),
    agent: actorIdSchema.optional(),
  })
  .refine((value) => (value.cron === undefined) !== (value.at === undefined), {
    error: "Expected exactly one of cron and at.",
    path: ["cron"],
  });
/** Payload of `schedule.create`. */
export type ScheduleCreate = z.infer<typeof scheduleCreateSchema>;

/**
 * `schedule.cancel` — stop the schedule: no tick fires after it.
 *
 * Shape: `{ reason?: string (up to 262,144 characters) }`.
 */
export const scheduleCancelSchema = z.strictObject({
  reason: commandNoteSchema.optional(),
});
/** Payload of `schedule.cancel`. */
export type ScheduleCancel = z.infer<typeof scheduleCancelSchema>;

/** The messages a schedule actor accepts, by type (its kind's `messageSchemas`). */
export const scheduleMessageSchemas = {
  "schedule.create": scheduleCreateSchema,
  "schedule.cancel": scheduleCancelSchema,
} as const;
