import {
  DEFAULT_MISFIRE_THRESHOLD_MS,
  MAX_SCHEDULE_ID_LENGTH,
  SCHEDULE_INDEX_EFFECT,
  emitEvent,
  requestEffect,
  sendMessage,
  type ScheduleIndexEntry,
  type ScheduleRejectionCode,
} from "@troupe/protocol";
import type { HostAction } from "../host-actions/machine-step.js";
import type { ScheduleContext } from "./schedule-context.js";
import {
  scheduleMessageId,
  type ScheduleCancelEvent,
  type ScheduleCreateEvent,
  type ScheduleTickEvent,
} from "./schedule-events.js";
import {
  checkScheduleSpec,
  dueTicks,
  nextTickAfter,
  previousTickBefore,
  type ScheduleSpec,
} from "./schedule-spec.js";

/**
 * What one schedule step decides, as data: a context patch, host actions in
 * order, and the timer change (arm the tick timer `delayMs` from the stream
 * time of the message, or cancel it).
 */
export interface ScheduleStep {
  readonly context?: Partial<ScheduleContext>;
  readonly actions: readonly HostAction[];
  readonly timer?: { readonly tickMs: number; readonly delayMs: number } | "cancel";
}

/** The spec of a created schedule. */
export function specOf(context: ScheduleContext): ScheduleSpec {
  return { cron: context.cron, atMs: context.atMs, timezone: context.timezone };
}

/**
 * `schedule.create` on a schedule that does not exist yet: checks the id, the
 * time zone, the pattern and that a tick lies ahead, then creates the schedule
 * and arms its first tick; otherwise `schedule.rejected` and nothing changes.
 * A one-shot `at` up to `misfireThresholdMs` in the past fires at once.
 *
 * @param context - the context (status `new`).
 * @param event - the command, with its stream time.
 */
export function createSchedule(context: ScheduleContext, event: ScheduleCreateEvent): ScheduleStep {
  const nowMs = event.streamTimeMs;
  const commandId = event.messageId ?? `create-${nowMs}`;
  const reject = (code: ScheduleRejectionCode, message: string): ScheduleStep =>
    rejectCommand(context, commandId, "schedule.create", code, message);
  if (context.scheduleId.length > MAX_SCHEDULE_ID_LENGTH) {
    return reject(
      "invalid_id",
      `A schedule id has at most ${MAX_SCHEDULE_ID_LENGTH} characters; "${context.scheduleId}" has ${context.scheduleId.length}.`,
    );
  }
  const spec: ScheduleSpec = { cron: event.cron, atMs: event.at, timezone: event.timezone };
  const problem = checkScheduleSpec(spec);
  if (problem !== undefined) return reject(problem.code, problem.message);
  const misfireThresholdMs = event.misfireThresholdMs ?? DEFAULT_MISFIRE_THRESHOLD_MS;
  const nextTickMs =
    event.at === undefined
      ? nextTickAfter(spec, nowMs)
      : event.at >= nowMs - misfireThresholdMs
        ? event.at
        : undefined;
  if (nextTickMs === undefined) {
    return reject(
      "no_future_tick",
      event.at === undefined
        ? `The cron pattern "${event.cron}" has no tick after ${new Date(nowMs).toISOString()}.`
        : `The time ${new Date(event.at).toISOString()} is more than ${misfireThresholdMs} ms in the past.`,
    );
  }
  const next: ScheduleContext = {
    ...context,
    status: "active",
    sessionId: event.sessionId,
    text: event.text,
    ...(event.cron === undefined ? {} : { cron: event.cron }),
    ...(event.at === undefined ? {} : { atMs: event.at }),
    ...(event.timezone === undefined ? {} : { timezone: event.timezone }),
    catchUp: event.catchUp ?? "skip",
    misfireThresholdMs,
    ...(event.agent === undefined ? {} : { agent: event.agent }),
    nextTickMs,
    revision: context.revision + 1,
  };
  return {
    context: next,
    actions: [
      emitEvent("schedule.created", {
        scheduleId: next.scheduleId,
        sessionId: event.sessionId,
        text: event.text,
        ...(event.cron === undefined ? {} : { cron: event.cron }),
        ...(event.at === undefined ? {} : { at: event.at }),
        ...(event.timezone === undefined ? {} : { timezone: event.timezone }),
        catchUp: next.catchUp,
        misfireThresholdMs,
        ...(event.agent === undefined ? {} : { agent: event.agent }),
        nextTickMs,
        commandId,
      }),
      indexAction(next, nowMs),
    ],
    timer: { tickMs: nextTickMs, delayMs: Math.max(0, nextTickMs - nowMs) },
  };
}

/**
 * The tick timer fired at stream time `streamTimeMs`. The due ticks are those
 * from the armed tick up to now. If the latest is within `misfireThresholdMs`
 * of now it fires (earlier ones: `once` folds them into this firing, `skip`
 * reports them in `schedule.skipped`); if it is later than that, `once` fires
 * it once as a catch-up and `skip` sends nothing. Then the next tick after now
 * is armed, or the schedule completes.
 *
 * @param context - an active schedule.
 * @param event - the timer's event, with its stream time.
 */
export function fireTick(context: ScheduleContext, event: ScheduleTickEvent): ScheduleStep {
  const nowMs = event.streamTimeMs;
  const spec = specOf(context);
  const due = dueTicks(spec, event.tickMs, nowMs);
  const late = nowMs - due.latestMs > context.misfireThresholdMs;
  const fire = !late || context.catchUp === "once";
  const folded = context.catchUp === "once" ? due.count - 1 : 0;
  const skipped = fire ? due.count - 1 - folded : due.count;
  const nextTickMs = nextTickAfter(spec, Math.max(nowMs, due.latestMs));
  const actions: HostAction[] = [];
  if (skipped > 0) {
    actions.push(
      emitEvent("schedule.skipped", {
        scheduleId: context.scheduleId,
        missedTicks: skipped,
        firstMissedTickMs: due.firstMs,
        lastMissedTickMs: fire ? previousOf(spec, due.latestMs, due.firstMs) : due.latestMs,
        ...(nextTickMs === undefined ? {} : { nextTickMs }),
      }),
    );
  }
  const sessionId = context.sessionId ?? "";
  if (fire) {
    const messageId = scheduleMessageId(context.scheduleId, due.latestMs);
    actions.push(
      sendMessage({
        to: `session/${sessionId}`,
        type: "user.message",
        payload: {
          text: context.text ?? "",
          clientMessageId: messageId,
          ...(context.agent === undefined ? {} : { agent: context.agent }),
          metadata: { scheduleId: context.scheduleId, tickMs: due.latestMs },
        },
      }),
      emitEvent("schedule.fired", {
        scheduleId: context.scheduleId,
        sessionId,
        tickMs: due.latestMs,
        firedAtMs: nowMs,
        messageId,
        missedTicks: folded,
        catchUp: late,
        ...(nextTickMs === undefined ? {} : { nextTickMs }),
      }),
    );
  }
  const next: ScheduleContext = {
    ...context,
    status: nextTickMs === undefined ? "completed" : "active",
    ...(fire ? { lastTickMs: due.latestMs, firedCount: context.firedCount + 1 } : {}),
    nextTickMs,
    revision: context.revision + 1,
  };
  if (nextTickMs === undefined) {
    actions.push(emitEvent("schedule.completed", { scheduleId: context.scheduleId }));
  }
  actions.push(indexAction(next, nowMs));
  return {
    context: next,
    actions,
    ...(nextTickMs === undefined
      ? {}
      : { timer: { tickMs: nextTickMs, delayMs: nextTickMs - nowMs } }),
  };
}

/**
 * `schedule.cancel` on an active schedule: the timer is cancelled and no tick
 * fires after it.
 *
 * @param context - an active schedule.
 * @param event - the command.
 */
export function cancelSchedule(context: ScheduleContext, event: ScheduleCancelEvent): ScheduleStep {
  const next: ScheduleContext = {
    ...context,
    status: "cancelled",
    nextTickMs: undefined,
    revision: context.revision + 1,
  };
  return {
    context: next,
    actions: [
      emitEvent("schedule.cancelled", {
        scheduleId: context.scheduleId,
        commandId: event.messageId ?? `cancel-${event.streamTimeMs}`,
        ...(event.reason === undefined ? {} : { reason: event.reason }),
      }),
      indexAction(next, event.streamTimeMs),
    ],
    timer: "cancel",
  };
}

/**
 * A command the schedule's state refuses: `schedule.rejected`, nothing else.
 *
 * @param context - the context.
 * @param commandId - envelope id of the command.
 * @param command - its message type.
 * @param code - why.
 * @param message - a sentence for humans.
 */
export function rejectCommand(
  context: ScheduleContext,
  commandId: string,
  command: string,
  code: ScheduleRejectionCode,
  message: string,
): ScheduleStep {
  return {
    actions: [
      emitEvent("schedule.rejected", {
        scheduleId: context.scheduleId,
        commandId,
        command,
        code,
        message,
      }),
    ],
  };
}

// The tick before `latestMs` (at least the first due one): the last one skipped.
function previousOf(spec: ScheduleSpec, latestMs: number, firstMs: number): number {
  return Math.max(firstMs, previousTickBefore(spec, latestMs) ?? firstMs);
}

function indexAction(context: ScheduleContext, nowMs: number): HostAction {
  const entry: ScheduleIndexEntry = {
    scheduleId: context.scheduleId,
    sessionId: context.sessionId ?? "",
    text: context.text ?? "",
    ...(context.cron === undefined ? {} : { cron: context.cron }),
    ...(context.atMs === undefined ? {} : { at: context.atMs }),
    ...(context.timezone === undefined ? {} : { timezone: context.timezone }),
    catchUp: context.catchUp,
    misfireThresholdMs: context.misfireThresholdMs,
    ...(context.agent === undefined ? {} : { agent: context.agent }),
    status: context.status === "new" ? "active" : context.status,
    ...(context.nextTickMs === undefined ? {} : { nextTickMs: context.nextTickMs }),
    ...(context.lastTickMs === undefined ? {} : { lastTickMs: context.lastTickMs }),
    firedCount: context.firedCount,
    revision: context.revision,
    updatedAtMs: nowMs,
  };
  return requestEffect({
    effect: SCHEDULE_INDEX_EFFECT,
    input: entry,
    effectId: `index.${context.revision}`,
  });
}
