import { ScheduleRejectedError } from "@troupe/client";
import { describe, expect, it } from "vitest";
import { formatScheduleList, scheduleCreateInput } from "./schedule-input.js";

const NOW = Date.UTC(2026, 11, 1, 12, 0, 0);

function refusal(run: () => unknown): ScheduleRejectedError {
  try {
    run();
  } catch (error) {
    if (ScheduleRejectedError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected a ScheduleRejectedError");
}

describe("scheduleCreateInput", () => {
  it("builds a cron schedule with its zone and policy", () => {
    expect(
      scheduleCreateInput(
        "s1",
        { cron: "0 9 * * 1-5" },
        "Daily report",
        { tz: "Europe/Paris", catchUp: "once", id: "daily", misfireThreshold: 5000 },
        NOW,
      ),
    ).toEqual({
      scheduleId: "daily",
      sessionId: "s1",
      text: "Daily report",
      cron: "0 9 * * 1-5",
      timezone: "Europe/Paris",
      catchUp: "once",
      misfireThresholdMs: 5000,
    });
  });

  it("reads an ISO time with an offset for a one-shot", () => {
    const input = scheduleCreateInput(
      "s1",
      { at: "2026-12-24T18:00:00+01:00" },
      "Merry",
      { id: "xmas" },
      NOW,
    );
    expect(input.at).toBe(Date.UTC(2026, 11, 24, 17, 0, 0));
  });

  it.each([
    [{ cron: "* * *" }, {}, "invalid_cron"],
    [{ cron: "0 9 * * *" }, { tz: "Europe/Atlantis" }, "invalid_timezone"],
    [{ at: "tomorrow-ish" }, {}, "invalid_command"],
    [{ at: "2020-01-01T00:00:00Z" }, {}, "no_future_tick"],
    [{ cron: "0 9 * * *" }, { id: "bad.id" }, "invalid_id"],
    [{ cron: "0 9 * * *" }, { catchUp: "twice" }, "invalid_command"],
  ] as const)("refuses %o with %o before sending (%s)", (when, flags, code) => {
    const error = refusal(() => scheduleCreateInput("s1", when, "x", flags, NOW));
    expect(error.rejectionCode).toBe(code);
  });
});

describe("formatScheduleList", () => {
  it("prints one line per schedule with its zone, next tick and firings", () => {
    expect(
      formatScheduleList([
        {
          scheduleId: "daily",
          sessionId: "s1",
          text: "Daily report",
          cron: "0 9 * * 1-5",
          timezone: "Europe/Paris",
          catchUp: "skip",
          misfireThresholdMs: 60_000,
          status: "active",
          nextTickMs: Date.UTC(2026, 11, 2, 8, 0, 0),
          firedCount: 3,
          revision: 4,
          updatedAtMs: NOW,
        },
      ]),
    ).toBe(
      'daily  active  "0 9 * * 1-5" Europe/Paris  next 2026-12-02T08:00:00.000Z  fired 3  → s1  "Daily report"',
    );
    expect(formatScheduleList([])).toBe("no schedules");
  });
});
