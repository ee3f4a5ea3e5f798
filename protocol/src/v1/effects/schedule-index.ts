import { z } from "zod";
import { timestampMsSchema } from "../field-schemas.js";
import { scheduleSettingsShape } from "../events/schedule-events.js";

/** Name of the effect a schedule requests to record its listing entry (docs/decisions/0044). */
export const SCHEDULE_INDEX_EFFECT = "schedule.index";

/** Where a schedule is in its life: waiting for ticks, done, or cancelled. */
export const scheduleStatusSchema = z.enum(["active", "completed", "cancelled"]);
/** See {@link scheduleStatusSchema}. */
export type ScheduleStatus = z.infer<typeof scheduleStatusSchema>;

/**
 * One schedule as `troupe schedule list` shows it: the input of the
 * `schedule.index` effect, stored by the host (one message per schedule in the
 * `<P>_SCHEDULES` stream, the newest `revision` wins) and read by the client.
 *
 * Shape: `{ scheduleId, sessionId, text, cron?, at? (Unix ms), timezone?,
 * catchUp, misfireThresholdMs (ms), agent?, status, nextTickMs? (Unix ms),
 * lastTickMs? (Unix ms, the last tick a message was sent for), firedCount,
 * revision (grows with every change), updatedAtMs (Unix ms, stream time) }`.
 */
export const scheduleIndexEntrySchema = z.object({
  ...scheduleSettingsShape,
  status: scheduleStatusSchema,
  nextTickMs: timestampMsSchema.optional(),
  lastTickMs: timestampMsSchema.optional(),
  firedCount: z.number().int().nonnegative(),
  revision: z.number().int().positive(),
  updatedAtMs: timestampMsSchema,
});
/** Input of the `schedule.index` effect; one entry of a schedule listing. */
export type ScheduleIndexEntry = z.infer<typeof scheduleIndexEntrySchema>;
