import { describe, expect, it } from "vitest";
import { scheduleIndexSubject } from "@troupe/addressing";
import { scheduleCancelSchema, scheduleCreateSchema } from "./schedule-commands.js";

describe("schedule commands", () => {
  it("schedule.create takes a cron pattern with a zone, or a one-shot time", () => {
    expect(
      scheduleCreateSchema.parse({
        sessionId: "s1",
        text: "hi",
        cron: "0 9 * * *",
        timezone: "Europe/Paris",
        catchUp: "once",
      }),
    ).toEqual({
      sessionId: "s1",
      text: "hi",
      cron: "0 9 * * *",
      timezone: "Europe/Paris",
      catchUp: "once",
    });
    expect(
      scheduleCreateSchema.parse({ sessionId: "s1", text: "hi", at: 1_700_000_000_000 }).at,
    ).toBe(1_700_000_000_000);
  });

  it.each([
    [{ sessionId: "s1", text: "hi" }, "cron"],
    [{ sessionId: "s1", text: "hi", cron: "* * * * *", at: 1 }, "cron"],
    [{ sessionId: "s1", text: "  ", cron: "* * * * *" }, "text"],
    [{ sessionId: "s.1", text: "hi", cron: "* * * * *" }, "sessionId"],
    [{ sessionId: "s1", text: "hi", cron: "* * * * *", catchUp: "twice" }, "catchUp"],
    [
      { sessionId: "s1", text: "hi", cron: "* * * * *", misfireThresholdMs: -1 },
      "misfireThresholdMs",
    ],
  ])("refuses %o, naming %s", (payload, field) => {
    const result = scheduleCreateSchema.safeParse(payload);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path[0])).toContain(field);
  });

  it("schedule.cancel is strict: an unknown field is refused by name", () => {
    const result = scheduleCancelSchema.safeParse({ reason: "x", force: true });
    expect(result.error?.issues[0]).toMatchObject({ code: "unrecognized_keys", keys: ["force"] });
  });

  it("the listing subject is built from a checked id", () => {
    expect(scheduleIndexSubject("daily-1")).toBe("_troupe.schedule.daily-1");
    expect(() => scheduleIndexSubject("a.b")).toThrow(/Invalid actor id "a.b"/);
  });
});
