import type { ScheduleCreateInput } from "@troupe/client";
import { ScheduleRejectedError } from "@troupe/client";
import { checkScheduleSpec, nextTickAfter } from "@troupe/machines";
import { MAX_SCHEDULE_ID_LENGTH, isValidActorId, type ScheduleIndexEntry } from "@troupe/protocol";

/** Flags of `troupe schedule add` / `at` that shape the schedule. */
export interface ScheduleFlags {
  readonly tz?: string;
  readonly catchUp?: string;
  readonly id?: string;
  readonly misfireThreshold?: number;
  readonly agent?: string;
}

/**
 * Builds and checks a `schedule.create` before anything is sent:
 * the id, the cron pattern and time zone (croner, as the schedule actor reads
 * them), the `at` time (ISO 8601) and the catch-up policy.
 *
 * @param sessionId - the session that receives the messages.
 * @param when - `{ cron }` or `{ at }` (an ISO 8601 time, e.g. `2026-12-24T18:00:00+01:00`).
 * @param text - the message text.
 * @param flags - `--tz`, `--catch-up`, `--id`, `--misfire-threshold` (ms), `--agent`.
 * @param nowMs - the current time, Unix ms (to refuse an `at` in the past).
 * @returns the client input.
 * @throws ScheduleRejectedError with the code the schedule would answer
 *   (`invalid_cron`, `invalid_timezone`, `no_future_tick`, `invalid_id`) or
 *   `invalid_command` for a bad `--catch-up` or time.
 */
export function scheduleCreateInput(
  sessionId: string,
  when: { readonly cron: string } | { readonly at: string },
  text: string,
  flags: ScheduleFlags,
  nowMs: number,
): ScheduleCreateInput {
  const scheduleId = flags.id ?? `sch-${crypto.randomUUID().slice(0, 12)}`;
  const refuse = (rejectionCode: ScheduleRejectedError["rejectionCode"], reason: string) =>
    new ScheduleRejectedError({ scheduleId, rejectionCode, reason });
  if (!isValidActorId(scheduleId) || scheduleId.length > MAX_SCHEDULE_ID_LENGTH) {
    throw refuse(
      "invalid_id",
      `a schedule id has 1 to ${MAX_SCHEDULE_ID_LENGTH} characters from A-Z, a-z, 0-9, "_" and "-"`,
    );
  }
  if (flags.catchUp !== undefined && flags.catchUp !== "skip" && flags.catchUp !== "once") {
    throw refuse("invalid_command", `--catch-up takes "skip" or "once", not "${flags.catchUp}"`);
  }
  let atMs: number | undefined;
  if ("at" in when) {
    atMs = Date.parse(when.at);
    if (!Number.isFinite(atMs)) {
      throw refuse(
        "invalid_command",
        `"${when.at}" is not an ISO 8601 time (e.g. 2026-12-24T18:00:00+01:00)`,
      );
    }
    if (atMs <= nowMs) throw refuse("no_future_tick", `${when.at} is in the past`);
  }
  const spec = "cron" in when ? { cron: when.cron, timezone: flags.tz } : { atMs };
  const problem = checkScheduleSpec(spec);
  if (problem !== undefined) throw refuse(problem.code, problem.message);
  if ("cron" in when && nextTickAfter(spec, nowMs) === undefined) {
    throw refuse("no_future_tick", `the cron pattern "${when.cron}" never matches again`);
  }
  return {
    scheduleId,
    sessionId,
    text,
    ...("cron" in when ? { cron: when.cron } : { at: atMs }),
    ...(flags.tz === undefined || !("cron" in when) ? {} : { timezone: flags.tz }),
    ...(flags.catchUp === undefined ? {} : { catchUp: flags.catchUp }),
    ...(flags.misfireThreshold === undefined ? {} : { misfireThresholdMs: flags.misfireThreshold }),
    ...(flags.agent === undefined ? {} : { agent: flags.agent }),
  };
}

/**
 * One line per schedule for `troupe schedule list`: id, status, when (cron and
 * zone, or the one-shot time), next tick (ISO, UTC), firings, session, text.
 *
 * @param entries - the listing.
 * @returns the lines, without a trailing newline; a note when empty.
 */
export function formatScheduleList(entries: readonly ScheduleIndexEntry[]): string {
  if (entries.length === 0) return "no schedules";
  return entries
    .map((entry) => {
      const when =
        entry.cron === undefined
          ? `at ${new Date(entry.at ?? 0).toISOString()}`
          : `"${entry.cron}" ${entry.timezone ?? "UTC"}`;
      const next =
        entry.nextTickMs === undefined ? "-" : `next ${new Date(entry.nextTickMs).toISOString()}`;
      const text = entry.text.length > 40 ? `${entry.text.slice(0, 39)}…` : entry.text;
      return [
        entry.scheduleId,
        entry.status,
        when,
        next,
        `fired ${entry.firedCount}`,
        `→ ${entry.sessionId}`,
        JSON.stringify(text),
      ].join("  ");
    })
    .join("\n");
}
