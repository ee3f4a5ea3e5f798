import { describe, expect, it } from "vitest";
import { clockInputSchema, clockTool, readClock } from "./clock-tool.js";
import { UnknownTimeZoneError } from "./unknown-time-zone-error.js";

/** 2026-11-30T06:04:05Z, in Unix ms. */
const AT_MS = Date.UTC(2026, 10, 30, 6, 4, 5);
const context = {
  sessionId: "s",
  runId: "r",
  toolCallId: "c",
  idempotencyKey: "s/r/c",
  signal: new AbortController().signal,
  attempt: 1,
};

describe("clock tool", () => {
  it("reads the wall-clock time in the given zone", () => {
    expect(readClock("Asia/Tokyo", AT_MS)).toEqual({
      timeZone: "Asia/Tokyo",
      iso: "2026-11-30T06:04:05.000Z",
      local: "2026-11-30 15:04:05",
    });
    expect(readClock("America/New_York", AT_MS).local).toBe("2026-11-30 01:04:05");
    expect(readClock("UTC", Date.UTC(2026, 0, 1, 0, 0, 0)).local).toBe("2026-01-01 00:00:00");
  });

  it("defaults to UTC and reads the injected clock", async () => {
    const tool = clockTool(() => AT_MS);
    const input = clockInputSchema.parse({});
    expect(input).toEqual({ timeZone: "UTC" });
    await expect(tool.execute(input, context)).resolves.toEqual({
      timeZone: "UTC",
      iso: "2026-11-30T06:04:05.000Z",
      local: "2026-11-30 06:04:05",
    });
  });

  it("throws an UnknownTimeZoneError naming the zone for a zone Intl does not know", async () => {
    const tool = clockTool(() => AT_MS);
    const failure = tool.execute({ timeZone: "Mars/Olympus_Mons" }, context);
    await expect(failure).rejects.toThrow(
      'Unknown time zone "Mars/Olympus_Mons": use an IANA time zone name such as "UTC", "Europe/Paris" or "Asia/Tokyo".',
    );
    const error: unknown = await failure.catch((caught: unknown) => caught);
    expect(UnknownTimeZoneError.isInstance(error)).toBe(true);
    expect(UnknownTimeZoneError.isInstance(new Error("x"))).toBe(false);
  });

  it("is a read tool, so the default policy runs it without asking", () => {
    expect(clockTool().effectClass).toBe("read");
    expect(clockInputSchema.safeParse({ timeZone: "" }).success).toBe(false);
  });
});
