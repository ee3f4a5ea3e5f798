import { defineTool, type ToolDefinition } from "@troupe/agents";
import { z } from "zod";
import { UnknownTimeZoneError } from "./unknown-time-zone-error.js";

/**
 * Arguments of the demo `clock` tool.
 *
 * Shape: `{ timeZone?: string }`, an IANA time zone name, default `"UTC"`.
 */
export const clockInputSchema = z.object({
  timeZone: z
    .string()
    .min(1)
    .default("UTC")
    .describe('IANA time zone name, e.g. "Europe/Paris"; default "UTC".'),
});
/** See {@link clockInputSchema}. */
export type ClockInput = z.input<typeof clockInputSchema>;

/**
 * What the `clock` tool returns.
 *
 * Shape: `{ timeZone: string, iso: string, local: string }`: `iso` is the
 * instant in UTC (`2026-11-30T06:04:05.000Z`), `local` the wall-clock time in
 * `timeZone` as `YYYY-MM-DD HH:mm:ss` (24-hour).
 */
export interface ClockReading {
  readonly timeZone: string;
  readonly iso: string;
  readonly local: string;
}

/**
 * Reads a clock in a time zone, with `Intl.DateTimeFormat`.
 *
 * @param timeZone - IANA name (`"Asia/Tokyo"`); `"UTC"` works too.
 * @param atMs - the instant, Unix time in ms.
 * @returns the {@link ClockReading}.
 * @throws UnknownTimeZoneError when `Intl` does not know `timeZone`.
 * @example readClock("Asia/Tokyo", Date.UTC(2026, 10, 30, 6, 4, 5)).local // "2026-11-30 15:04:05"
 */
export function readClock(timeZone: string, atMs: number): ClockReading {
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
  } catch (error) {
    throw new UnknownTimeZoneError(timeZone, error);
  }
  const parts = Object.fromEntries(
    format.formatToParts(atMs).map((part) => [part.type, part.value]),
  );
  const local = `${parts["year"]}-${parts["month"]}-${parts["day"]} ${parts["hour"]}:${parts["minute"]}:${parts["second"]}`;
  return { timeZone: format.resolvedOptions().timeZone, iso: new Date(atMs).toISOString(), local };
}

/**
 * The demo `clock` tool (`read`): the current time in a time zone.
 *
 * @param nowMs - the current time, Unix ms; default `Date.now`.
 * @returns the tool; its `execute` throws {@link UnknownTimeZoneError} for an unknown zone.
 */
export function clockTool(nowMs: () => number = Date.now): ToolDefinition<typeof clockInputSchema> {
  return defineTool({
    name: "clock",
    description: "Tells the current date and time in a time zone (IANA name, default UTC).",
    inputSchema: clockInputSchema,
    effectClass: "read",
    timeoutMs: 1_000,
    // A promise that rejects (rather than a synchronous throw) for an unknown zone.
    execute: ({ timeZone }) => Promise.resolve().then(() => readClock(timeZone, nowMs())),
  });
}
