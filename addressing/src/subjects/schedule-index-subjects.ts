import { formatAddress } from "../address/format-address.js";

/**
 * The schedule listing of a deployment (docs/decisions/0044): a
 * stream `<P>_SCHEDULES` holding one message per schedule (max one per
 * subject) on `_troupe.schedule.<scheduleId>`, the newest state the schedule
 * actor recorded through its `schedule.index` effect. `_troupe.schedule.*`
 * follows every schedule.
 *
 * @param prefix - deployment prefix, e.g. `troupe`.
 * @returns the stream name, e.g. `TROUPE_SCHEDULES`.
 */
export function scheduleIndexStreamName(prefix: string): string {
  return `${prefix.toUpperCase().replace(/[^A-Z0-9_-]/g, "_")}_SCHEDULES`;
}

/** Subjects of the schedule listing stream: `_troupe.schedule.*`. */
export const SCHEDULE_INDEX_STREAM_SUBJECTS = ["_troupe.schedule.*"] as const;

/**
 * The subject of one schedule's listing entry: `_troupe.schedule.<scheduleId>`.
 *
 * @param scheduleId - the schedule's id (actor-id-safe).
 * @returns the subject.
 * @throws InvalidAddressError when the id is not actor-id-safe.
 */
export function scheduleIndexSubject(scheduleId: string): string {
  formatAddress({ kind: "schedule", id: scheduleId });
  return `_troupe.schedule.${scheduleId}`;
}
