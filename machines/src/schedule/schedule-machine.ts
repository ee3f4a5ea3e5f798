import { enqueueActions, setup } from "xstate";
import { DEFAULT_MISFIRE_THRESHOLD_MS } from "@troupe/protocol";
import type { ScheduleContext, ScheduleInput } from "./schedule-context.js";
import { SCHEDULE_TIMER_ID, type ScheduleEvent } from "./schedule-events.js";
import {
  cancelSchedule,
  createSchedule,
  fireTick,
  rejectCommand,
  type ScheduleStep,
} from "./schedule-steps.js";

/**
 * Carries out a {@link ScheduleStep}: the context patch, the host actions in
 * order, then the timer change (a delayed raise of `schedule.tick` with id
 * `tick`, which the host keeps as a durable timer, or its cancellation).
 */
function runStep(decide: (context: ScheduleContext, event: ScheduleEvent) => ScheduleStep) {
  return enqueueActions<
    ScheduleContext,
    ScheduleEvent,
    undefined,
    ScheduleEvent,
    never,
    never,
    never,
    never
  >(({ context, event, enqueue }) => {
    const step = decide(context, event);
    if (step.context !== undefined) enqueue.assign(step.context);
    for (const action of step.actions) enqueue(action as never);
    if (step.timer === "cancel") enqueue.cancel(SCHEDULE_TIMER_ID);
    else if (step.timer !== undefined) {
      enqueue.raise({ type: "schedule.tick", tickMs: step.timer.tickMs } as ScheduleEvent, {
        delay: step.timer.delayMs,
        id: SCHEDULE_TIMER_ID,
      });
    }
  });
}

const commandIdOf = (event: ScheduleEvent) =>
  event.messageId ?? `${event.type}-${event.streamTimeMs}`;

/**
 * The schedule actor (`schedule/<scheduleId>`): sends a
 * `user.message` to a session at every tick of a cron pattern (in a time
 * zone) or once at an instant, with `clientMessageId`
 * `sched-<scheduleId>-<tickMs>`.
 *
 * States: `idle` (not created: a rejected create stores nothing) → `active`
 * (one durable timer armed for `nextTickMs`) → `completed` (no tick left) or
 * `cancelled`. Pure: its only "now" is the `streamTimeMs` the host puts on
 * every event (the kind sets `withStreamTime`), from which the host also
 * counts the timer's delay, so a tick's deadline is exact. Exactly one
 * firing per tick follows from the runtime: one timer per actor, fired into
 * the inbox under a deterministic message id, each inbox message taken once;
 * the session dedups the message id as a last guard. Events:
 * `schedule.created`, `schedule.fired`, `schedule.skipped`,
 * `schedule.completed`, `schedule.cancelled`, `schedule.rejected`; every
 * change also requests the `schedule.index` effect (the listing).
 * See docs/capabilities/schedules.md and docs/decisions/0044.
 */
export const scheduleMachine = setup({
  types: {
    context: {} as ScheduleContext,
    events: {} as ScheduleEvent,
    input: {} as ScheduleInput,
  },
  actions: {
    create: runStep((context, event) => createSchedule(context, event as never)),
    fire: runStep((context, event) => fireTick(context, event as never)),
    cancel: runStep((context, event) => cancelSchedule(context, event as never)),
    rejectCancelUnknown: runStep((context, event) =>
      rejectCommand(
        context,
        commandIdOf(event),
        "schedule.cancel",
        "not_found",
        `No schedule "${context.scheduleId}".`,
      ),
    ),
    rejectCreateExisting: runStep((context, event) =>
      rejectCommand(
        context,
        commandIdOf(event),
        "schedule.create",
        "already_exists",
        `Schedule "${context.scheduleId}" exists already (${context.status}); cancel it or choose another id.`,
      ),
    ),
    rejectCancelSettled: runStep((context, event) =>
      rejectCommand(
        context,
        commandIdOf(event),
        "schedule.cancel",
        "already_settled",
        `Schedule "${context.scheduleId}" is ${context.status} already.`,
      ),
    ),
  },
}).createMachine({
  id: "schedule",
  context: ({ input }) => ({
    scheduleId: input.address.id,
    status: "new",
    catchUp: "skip",
    misfireThresholdMs: DEFAULT_MISFIRE_THRESHOLD_MS,
    firedCount: 0,
    revision: 0,
  }),
  initial: "idle",
  states: {
    idle: {
      on: {
        "schedule.create": [
          {
            target: "active",
            guard: ({ context, event }) => createSchedule(context, event).context !== undefined,
            actions: "create",
          },
          { actions: "create" },
        ],
        "schedule.cancel": { actions: "rejectCancelUnknown" },
      },
    },
    active: {
      on: {
        "schedule.tick": [
          {
            target: "completed",
            guard: ({ context, event }) => fireTick(context, event).context?.status === "completed",
            actions: "fire",
          },
          { actions: "fire" },
        ],
        "schedule.cancel": { target: "cancelled", actions: "cancel" },
        "schedule.create": { actions: "rejectCreateExisting" },
      },
    },
    completed: {
      on: {
        "schedule.create": { actions: "rejectCreateExisting" },
        "schedule.cancel": { actions: "rejectCancelSettled" },
      },
    },
    cancelled: {
      on: {
        "schedule.create": { actions: "rejectCreateExisting" },
        "schedule.cancel": { actions: "rejectCancelSettled" },
      },
    },
  },
});
