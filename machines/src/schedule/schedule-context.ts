import type { ActorAddress, CatchUpPolicy, ScheduleStatus } from "@troupe/protocol";

/**
 * The context of a schedule actor (`schedule/<scheduleId>`). Before
 * its `schedule.create` only `scheduleId` is set (`status: "new"`, nothing stored).
 */
export interface ScheduleContext {
  readonly scheduleId: string;
  readonly status: "new" | ScheduleStatus;
  readonly sessionId?: string;
  readonly text?: string;
  readonly cron?: string;
  /** The tick of a one-shot schedule, Unix ms. */
  readonly atMs?: number;
  readonly timezone?: string;
  readonly catchUp: CatchUpPolicy;
  /** How late a firing may come and still count as on time, in ms. */
  readonly misfireThresholdMs: number;
  readonly agent?: string;
  /** The tick the armed timer is for, Unix ms; absent when none is armed. */
  readonly nextTickMs?: number;
  /** The last tick a message was sent for, Unix ms. */
  readonly lastTickMs?: number;
  /** Messages sent so far. */
  readonly firedCount: number;
  /** Grows with every change the listing shows (the `schedule.index` revision). */
  readonly revision: number;
}

/** Input of the schedule machine: its address (the runtime's default input). */
export interface ScheduleInput {
  readonly address: ActorAddress;
}
