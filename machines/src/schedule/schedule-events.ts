import type { ScheduleCancel, ScheduleCreate } from "@troupe/protocol";

/**
 * Fields the host adds to every event of a schedule actor: the envelope id of
 * the inbox message (`messageId`, absent on timer firings) and its JetStream
 * stream time (`streamTimeMs`, Unix ms: the kind sets `withStreamTime`), the
 * machine's only "now".
 */
interface HostStamp {
  readonly messageId?: string;
  readonly streamTimeMs: number;
}

/** `schedule.create` as the machine receives it. */
export type ScheduleCreateEvent = ScheduleCreate & HostStamp & { readonly type: "schedule.create" };
/** `schedule.cancel` as the machine receives it. */
export type ScheduleCancelEvent = ScheduleCancel & HostStamp & { readonly type: "schedule.cancel" };
/** The durable timer of one tick firing (a delayed raise the machine armed, id `tick`). */
export interface ScheduleTickEvent extends HostStamp {
  readonly type: "schedule.tick";
  /** The tick the timer was armed for, Unix ms. */
  readonly tickMs: number;
}

/** Every event the schedule machine takes (effect results of `schedule.index` are ignored). */
export type ScheduleEvent = ScheduleCreateEvent | ScheduleCancelEvent | ScheduleTickEvent;

/** Id of the schedule's one durable timer. */
export const SCHEDULE_TIMER_ID = "tick";

/**
 * The `clientMessageId` of the `user.message` a tick sends:
 * `sched-<scheduleId>-<tickMs>`. The session admits each id once, so a firing
 * sent twice is answered `message.duplicate`, never run twice.
 *
 * @param scheduleId - the schedule's id.
 * @param tickMs - the tick, Unix ms.
 */
export function scheduleMessageId(scheduleId: string, tickMs: number): string {
  return `sched-${scheduleId}-${tickMs}`;
}
