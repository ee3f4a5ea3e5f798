import { z } from "zod";
import { identifierSchema, timestampMsSchema } from "../field-schemas.js";
import { catchUpPolicySchema } from "../messages/schedule-commands.js";

// Events of a schedule actor, on `troupe.schedule.<scheduleId>.events.<type>`
// (docs/capabilities/schedules.md). Times are Unix ms.

/**
 * Longest schedule id, in characters: 96, so that the `clientMessageId` of a
 * firing (`sched-<scheduleId>-<tickMs>`) stays within the 128 of an actor id.
 */
export const MAX_SCHEDULE_ID_LENGTH = 96;

/**
 * The settings a schedule was created with, as its events and its listing
 * entry (`ScheduleIndexEntry`) carry them: `{ scheduleId, sessionId, text,
 * cron?, at? (Unix ms), timezone?, catchUp, misfireThresholdMs (ms), agent? }`.
 */
export const scheduleSettingsShape = {
  scheduleId: identifierSchema,
  sessionId: identifierSchema,
  text: z.string(),
  cron: z.string().optional(),
  at: timestampMsSchema.optional(),
  timezone: z.string().optional(),
  catchUp: catchUpPolicySchema,
  misfireThresholdMs: z.number().int().nonnegative(),
  agent: identifierSchema.optional(),
};

/**
 * `schedule.created` — the schedule exists and waits for its first tick.
 *
 * Shape: `{ scheduleId, sessionId, text, cron?, at?, timezone?, catchUp,
 * misfireThresholdMs, agent?, nextTickMs, commandId }`; `commandId` is the
 * envelope id of the `schedule.create` it answers.
 */
export const scheduleCreatedSchema = z.object({
  ...scheduleSettingsShape,
  nextTickMs: timestampMsSchema,
  commandId: identifierSchema,
});
/** Payload of `schedule.created`. */
export type ScheduleCreated = z.infer<typeof scheduleCreatedSchema>;

/**
 * `schedule.fired` — one `user.message` was sent to the session for `tickMs`.
 *
 * Shape: `{ scheduleId, sessionId, tickMs, firedAtMs, messageId, missedTicks,
 * catchUp: boolean, nextTickMs? }`. `messageId` is the message's
 * `clientMessageId`, `sched-<scheduleId>-<tickMs>`; `missedTicks` counts the
 * earlier ticks this firing stands for (≥ 0, counted up to 100); `catchUp`
 * is true when the firing itself came after the misfire threshold (policy
 * `once`); `nextTickMs` is absent when no tick follows (a one-shot).
 */
export const scheduleFiredSchema = z.object({
  scheduleId: identifierSchema,
  sessionId: identifierSchema,
  tickMs: timestampMsSchema,
  firedAtMs: timestampMsSchema,
  messageId: identifierSchema,
  missedTicks: z.number().int().nonnegative(),
  catchUp: z.boolean(),
  nextTickMs: timestampMsSchema.optional(),
});
/** Payload of `schedule.fired`. */
export type ScheduleFired = z.infer<typeof scheduleFiredSchema>;

/**
 * `schedule.skipped` — ticks were missed (hosts down past the misfire
 * threshold) and no message was sent for them (policy `skip`, or older ticks
 * a later firing stands for).
 *
 * Shape: `{ scheduleId, missedTicks, firstMissedTickMs, lastMissedTickMs, nextTickMs? }`.
 */
export const scheduleSkippedSchema = z.object({
  scheduleId: identifierSchema,
  missedTicks: z.number().int().positive(),
  firstMissedTickMs: timestampMsSchema,
  lastMissedTickMs: timestampMsSchema,
  nextTickMs: timestampMsSchema.optional(),
});
/** Payload of `schedule.skipped`. */
export type ScheduleSkipped = z.infer<typeof scheduleSkippedSchema>;

/**
 * `schedule.completed` — a schedule with no further tick (a one-shot that
 * fired or was skipped, a cron pattern with no future match) is done.
 *
 * Shape: `{ scheduleId }`.
 */
export const scheduleCompletedSchema = z.object({ scheduleId: identifierSchema });
/** Payload of `schedule.completed`. */
export type ScheduleCompleted = z.infer<typeof scheduleCompletedSchema>;

/**
 * `schedule.cancelled` — the schedule was cancelled; no tick fires after it.
 *
 * Shape: `{ scheduleId, commandId, reason? }`.
 */
export const scheduleCancelledSchema = z.object({
  scheduleId: identifierSchema,
  commandId: identifierSchema,
  reason: z.string().optional(),
});
/** Payload of `schedule.cancelled`. */
export type ScheduleCancelled = z.infer<typeof scheduleCancelledSchema>;

/**
 * Why a schedule command was refused: `invalid_id` (a schedule id over
 * {@link MAX_SCHEDULE_ID_LENGTH} characters), `invalid_cron` (a pattern croner cannot
 * read), `invalid_timezone` (not an IANA time zone), `no_future_tick` (an `at`
 * in the past, or a pattern that never matches again), `already_exists` (a
 * second `schedule.create` for the same id), `not_found` (a cancel of a
 * schedule that does not exist), `already_settled` (a cancel of a schedule
 * that completed or was cancelled).
 */
export const scheduleRejectionCodeSchema = z.enum([
  "invalid_id",
  "invalid_cron",
  "invalid_timezone",
  "no_future_tick",
  "already_exists",
  "not_found",
  "already_settled",
]);
/** See {@link scheduleRejectionCodeSchema}. */
export type ScheduleRejectionCode = z.infer<typeof scheduleRejectionCodeSchema>;

/**
 * `schedule.rejected` — a `schedule.create` or `schedule.cancel` changed
 * nothing. For a schedule that does not exist the event is transient
 * (`meta.seq` 0) and nothing is stored.
 *
 * Shape: `{ scheduleId, commandId, command, code: ScheduleRejectionCode, message }`.
 */
export const scheduleRejectedSchema = z.object({
  scheduleId: identifierSchema,
  commandId: identifierSchema,
  command: z.string().min(1),
  code: scheduleRejectionCodeSchema,
  message: z.string(),
});
/** Payload of `schedule.rejected`. */
export type ScheduleRejected = z.infer<typeof scheduleRejectedSchema>;
