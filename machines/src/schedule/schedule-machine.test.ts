import { Cron } from "croner";
import { describe, expect, it, vi } from "vitest";
import { initialTransition, transition, type SnapshotFrom } from "xstate";
import { SCHEDULE_INDEX_EFFECT } from "@troupe/protocol";
import { scheduleMachine } from "./schedule-machine.js";
import { MAX_COUNTED_TICKS } from "./schedule-spec.js";
import type { ScheduleEvent } from "./schedule-events.js";

type Action = { type: string; params?: Record<string, unknown> };

const T0 = Date.UTC(2026, 0, 5, 8, 0, 30); // Monday 2026-01-05 08:00:30 UTC
const MINUTE = 60_000;

type Snapshot = SnapshotFrom<typeof scheduleMachine>;

function start(): Snapshot {
  return initialTransition(scheduleMachine, { address: { kind: "schedule", id: "daily" } })[0];
}

function step(snapshot: Snapshot, event: ScheduleEvent) {
  const [next, actions] = transition(scheduleMachine, snapshot, event);
  return { snapshot: next, actions: actions as unknown as Action[] };
}

const emitted = (actions: Action[]) =>
  actions
    .filter((action) => action.type === "troupe.emit")
    .map((action) => action.params as { type: string; payload: Record<string, unknown> });
const sent = (actions: Action[]) =>
  actions.filter((action) => action.type === "troupe.send").map((action) => action.params);
const timers = (actions: Action[]) =>
  actions
    .filter((action) => action.type === "xstate.raise" || action.type === "xstate.cancel")
    .map((action) => ({ type: action.type, ...(action.params as object) }));

function create(payload: Partial<Extract<ScheduleEvent, { type: "schedule.create" }>> = {}) {
  return step(start(), {
    type: "schedule.create",
    sessionId: "s1",
    text: "Daily report",
    cron: "* * * * *",
    messageId: "cmd-1",
    streamTimeMs: T0,
    ...payload,
  });
}

const tick = (tickMs: number, streamTimeMs: number): ScheduleEvent => ({
  type: "schedule.tick",
  tickMs,
  streamTimeMs,
});

describe("schedule machine", () => {
  it("a cron schedule arms a durable timer for its next tick, counted from the stream time", () => {
    const { snapshot, actions } = create();
    expect(snapshot.value).toBe("active");
    const next = Date.UTC(2026, 0, 5, 8, 1, 0);
    expect(emitted(actions)[0]).toMatchObject({
      type: "schedule.created",
      payload: {
        scheduleId: "daily",
        sessionId: "s1",
        nextTickMs: next,
        catchUp: "skip",
        commandId: "cmd-1",
      },
    });
    expect(timers(actions)).toEqual([
      expect.objectContaining({
        type: "xstate.raise",
        id: "tick",
        delay: next - T0,
        event: { type: "schedule.tick", tickMs: next },
      }),
    ]);
    const index = actions.find((action) => action.type === "troupe.effect")?.params;
    expect(index).toMatchObject({
      effect: SCHEDULE_INDEX_EFFECT,
      effectId: "index.1",
      input: { status: "active", nextTickMs: next, revision: 1, firedCount: 0 },
    });
  });

  it("reads the pattern in the schedule's time zone", () => {
    const { actions } = create({ cron: "0 9 * * *", timezone: "Asia/Tokyo" });
    // 09:00 in Tokyo (UTC+9) is 00:00 UTC; at 08:00 UTC on the 5th the next is the 6th.
    expect(emitted(actions)[0]?.payload.nextTickMs).toBe(Date.UTC(2026, 0, 6, 0, 0, 0));
  });

  it.each([
    [{ cron: "61 * * * *" }, "invalid_cron"],
    [{ cron: "* * *" }, "invalid_cron"],
    [{ timezone: "Mars/Base" }, "invalid_timezone"],
    [{ cron: undefined, at: T0 - 2 * MINUTE }, "no_future_tick"],
  ] as const)("a create with %o is rejected (%s) and creates nothing", (payload, code) => {
    const { snapshot, actions } = create(payload);
    expect(snapshot.value).toBe("idle");
    expect(snapshot.context.status).toBe("new");
    expect(actions.every((action) => action.type === "troupe.emit")).toBe(true);
    expect(emitted(actions)).toEqual([
      {
        type: "schedule.rejected",
        payload: expect.objectContaining({
          code,
          commandId: "cmd-1",
          command: "schedule.create",
        }) as unknown,
      },
    ]);
  });

  it("a tick on time sends one user.message with the tick's message id and arms the next", () => {
    const first = Date.UTC(2026, 0, 5, 8, 1, 0);
    const { snapshot, actions } = step(create().snapshot, tick(first, first + 150));
    expect(sent(actions)).toEqual([
      {
        to: "session/s1",
        type: "user.message",
        payload: {
          text: "Daily report",
          clientMessageId: `sched-daily-${first}`,
          metadata: { scheduleId: "daily", tickMs: first },
        },
      },
    ]);
    expect(emitted(actions).map((event) => event.type)).toEqual(["schedule.fired"]);
    expect(emitted(actions)[0]?.payload).toMatchObject({
      tickMs: first,
      missedTicks: 0,
      catchUp: false,
    });
    expect(timers(actions)).toEqual([
      expect.objectContaining({
        delay: first + MINUTE - (first + 150),
        event: { type: "schedule.tick", tickMs: first + MINUTE },
      }),
    ]);
    expect(snapshot.context).toMatchObject({
      firedCount: 1,
      lastTickMs: first,
      nextTickMs: first + MINUTE,
    });
  });

  it("after downtime, catch-up skip sends nothing for the missed ticks and arms the next future tick", () => {
    const first = Date.UTC(2026, 0, 5, 8, 1, 0);
    const now = first + 3 * MINUTE + 20_000; // ticks 8:01 … 8:04 passed, the latest 20 s ago
    const { actions } = step(create({ misfireThresholdMs: 5_000 }).snapshot, tick(first, now));
    expect(sent(actions)).toEqual([]);
    expect(emitted(actions)).toEqual([
      {
        type: "schedule.skipped",
        payload: {
          scheduleId: "daily",
          missedTicks: 4,
          firstMissedTickMs: first,
          lastMissedTickMs: first + 3 * MINUTE,
          nextTickMs: first + 4 * MINUTE,
        },
      },
    ]);
    expect(timers(actions)).toEqual([expect.objectContaining({ delay: first + 4 * MINUTE - now })]);
  });

  it("after downtime, catch-up once sends one message for all the missed ticks", () => {
    const first = Date.UTC(2026, 0, 5, 8, 1, 0);
    const now = first + 3 * MINUTE + 20_000;
    const { actions } = step(
      create({ misfireThresholdMs: 5_000, catchUp: "once" }).snapshot,
      tick(first, now),
    );
    expect(sent(actions)).toHaveLength(1);
    expect(emitted(actions)).toEqual([
      {
        type: "schedule.fired",
        payload: expect.objectContaining({
          tickMs: first + 3 * MINUTE,
          messageId: `sched-daily-${first + 3 * MINUTE}`,
          missedTicks: 3,
          catchUp: true,
          nextTickMs: first + 4 * MINUTE,
        }) as unknown,
      },
    ]);
  });

  it("a per-second schedule in Asia/Kolkata back after 3 h of downtime: one catch-up firing, bounded work (issue #31)", () => {
    const created = create({
      cron: "* * * * * *",
      timezone: "Asia/Kolkata",
      catchUp: "once",
      misfireThresholdMs: 5_000,
    });
    const first = T0 + 1_000;
    const now = first + 3 * 3_600_000 + 250; // 10,800 ticks passed, the latest 250 ms ago
    const nextRuns = vi.spyOn(Cron.prototype, "nextRun");
    const { actions } = step(created.snapshot, tick(first, now));
    // Bounded work whatever the missed count: one croner step per counted
    // tick and one for the next tick, twice (the transition's guard and its
    // action each take the step). 10,000 steps took 2.7 s of the loop here.
    expect(nextRuns.mock.calls.length).toBeLessThanOrEqual(2 * (MAX_COUNTED_TICKS + 1));
    nextRuns.mockRestore();
    expect(sent(actions)).toHaveLength(1);
    const fired = emitted(actions).filter((event) => event.type === "schedule.fired");
    expect(fired).toHaveLength(1);
    expect(fired[0]?.payload).toMatchObject({
      tickMs: first + 3 * 3_600_000, // the latest due tick, found in one step past the count
      missedTicks: MAX_COUNTED_TICKS - 1,
      catchUp: false,
      nextTickMs: first + 3 * 3_600_000 + 1_000,
    });
    expect(emitted(actions).map((event) => event.type)).toEqual(["schedule.fired"]);
  });

  it("the same with skip: one schedule.skipped for the counted ticks, then the latest fires on time", () => {
    const created = create({
      cron: "* * * * * *",
      timezone: "Asia/Kolkata",
      misfireThresholdMs: 5_000,
    });
    const first = T0 + 1_000;
    const now = first + 3 * 3_600_000 + 250;
    const { actions } = step(created.snapshot, tick(first, now));
    expect(emitted(actions).map((event) => [event.type, event.payload.missedTicks])).toEqual([
      ["schedule.skipped", MAX_COUNTED_TICKS - 1],
      ["schedule.fired", 0],
    ]);
    expect(sent(actions)).toHaveLength(1);
  });

  it("with skip, a latest tick within the threshold still fires and the older ones are reported skipped", () => {
    const first = Date.UTC(2026, 0, 5, 8, 1, 0);
    const now = first + 2 * MINUTE + 1_000;
    const { actions } = step(create().snapshot, tick(first, now));
    expect(emitted(actions).map((event) => [event.type, event.payload.missedTicks])).toEqual([
      ["schedule.skipped", 2],
      ["schedule.fired", 0],
    ]);
    expect(emitted(actions)[0]?.payload).toMatchObject({
      firstMissedTickMs: first,
      lastMissedTickMs: first + MINUTE,
    });
  });

  it("a one-shot fires once and completes; its timer is not re-armed", () => {
    const at = T0 + 10 * MINUTE;
    const created = create({ cron: undefined, at });
    expect(timers(created.actions)).toEqual([expect.objectContaining({ delay: 10 * MINUTE })]);
    const { snapshot, actions } = step(created.snapshot, tick(at, at + 80));
    expect(snapshot.value).toBe("completed");
    expect(sent(actions)).toHaveLength(1);
    expect(emitted(actions).map((event) => event.type)).toEqual([
      "schedule.fired",
      "schedule.completed",
    ]);
    expect(timers(actions)).toEqual([]);
  });

  it("cancel removes the timer; a second cancel and a second create are rejected", () => {
    const { snapshot, actions } = step(create().snapshot, {
      type: "schedule.cancel",
      reason: "done",
      messageId: "cmd-2",
      streamTimeMs: T0 + 1_000,
    });
    expect(snapshot.value).toBe("cancelled");
    expect(timers(actions)).toEqual([
      expect.objectContaining({ type: "xstate.cancel", sendId: "tick" }),
    ]);
    expect(emitted(actions)[0]).toEqual({
      type: "schedule.cancelled",
      payload: { scheduleId: "daily", commandId: "cmd-2", reason: "done" },
    });
    const again = step(snapshot, {
      type: "schedule.cancel",
      messageId: "cmd-3",
      streamTimeMs: T0 + 2_000,
    });
    expect(emitted(again.actions)[0]?.payload).toMatchObject({
      code: "already_settled",
      commandId: "cmd-3",
    });
    const recreate = create();
    const duplicate = step(recreate.snapshot, {
      type: "schedule.create",
      sessionId: "s2",
      text: "x",
      cron: "* * * * *",
      messageId: "cmd-4",
      streamTimeMs: T0,
    });
    expect(emitted(duplicate.actions)[0]?.payload).toMatchObject({ code: "already_exists" });
    expect(duplicate.snapshot.context.sessionId).toBe("s1");
  });

  it("a cancel of a schedule that does not exist is rejected not_found and stores nothing", () => {
    const { snapshot, actions } = step(start(), {
      type: "schedule.cancel",
      messageId: "c",
      streamTimeMs: T0,
    });
    expect(snapshot.value).toBe("idle");
    expect(emitted(actions)[0]?.payload).toMatchObject({ code: "not_found" });
  });
});
