import { TroupeError, type ScheduleRejectionCode } from "@troupe/protocol";

/**
 * A schedule refused a command (`schedule.rejected`), or the
 * command was refused before it was sent (the CLI checks cron patterns and
 * time zones itself). Nothing was created or changed.
 *
 * @example
 * ```ts
 * try {
 *   await client.schedules.create({ scheduleId: "daily", sessionId: "s1", cron: "61 * * * *", text: "hi" });
 * } catch (error) {
 *   if (ScheduleRejectedError.isInstance(error)) console.log(error.rejectionCode); // "invalid_cron"
 * }
 * ```
 */
export class ScheduleRejectedError extends TroupeError {
  /** The schedule the command addressed. */
  readonly scheduleId: string;
  /** Why: `invalid_id`, `invalid_cron`, `invalid_timezone`, `no_future_tick`, `already_exists`, `not_found`, `already_settled`, or `invalid_command` (refused by its schema). */
  readonly rejectionCode: ScheduleRejectionCode | "invalid_command";
  /** A sentence for humans. */
  readonly reason: string;

  /**
   * @param rejection - the schedule, the code and the reason.
   */
  constructor(rejection: {
    readonly scheduleId: string;
    readonly rejectionCode: ScheduleRejectionCode | "invalid_command";
    readonly reason: string;
  }) {
    super(
      "schedule_rejected",
      `Schedule ${rejection.scheduleId}: ${rejection.reason} (${rejection.rejectionCode})`,
      { retryable: false, details: { ...rejection } },
    );
    this.name = "ScheduleRejectedError";
    this.scheduleId = rejection.scheduleId;
    this.rejectionCode = rejection.rejectionCode;
    this.reason = rejection.reason;
  }

  /**
   * Whether `value` is a `ScheduleRejectedError` from any copy of the package.
   *
   * @param value - anything, typically a caught exception.
   * @returns `true` for a branded Troupe error with code `schedule_rejected`.
   */
  static override isInstance(value: unknown): value is ScheduleRejectedError {
    return TroupeError.isInstance(value) && value.code === "schedule_rejected";
  }
}
