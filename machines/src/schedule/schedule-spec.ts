import { Cron } from "croner";
import type { ScheduleRejectionCode } from "@troupe/protocol";

/**
 * When a schedule fires: every match of a cron pattern (in a time zone), or
 * once at an instant. Exactly one of `cron` and `atMs`.
 */
export interface ScheduleSpec {
  /** Cron pattern, 5 fields (minute precision), 6 (seconds first) or 7 (year last), croner syntax. */
  readonly cron?: string | undefined;
  /** The one tick of a one-shot schedule, Unix ms. */
  readonly atMs?: number | undefined;
  /** IANA time zone the pattern is read in (`"Europe/Paris"`); default UTC. */
  readonly timezone?: string | undefined;
}

/** Why a spec cannot be used: a rejection code and a sentence. */
export interface ScheduleSpecProblem {
  readonly code: Extract<ScheduleRejectionCode, "invalid_cron" | "invalid_timezone">;
  readonly message: string;
}

/**
 * Most ticks {@link dueTicks} counts one by one; beyond it the count stops and
 * the latest due tick is found in one step. Each count is a croner `nextRun`,
 * which in a time zone other than UTC costs about 0.3 ms on a 2-core machine
 * (10,000 took 2.7–3.2 s of the event loop): 100 keeps a catch-up
 * after any downtime to about 30 ms, whatever the zone and the missed count.
 */
export const MAX_COUNTED_TICKS = 100;

/**
 * Checks a spec without reading any clock: the time zone must be an IANA zone
 * `Intl` knows, the pattern one croner parses.
 *
 * @param spec - the schedule's spec.
 * @returns undefined when usable, else the problem (`invalid_timezone` / `invalid_cron`).
 * @see https://croner.56k.guru/usage/pattern/ (pattern syntax)
 */
export function checkScheduleSpec(spec: ScheduleSpec): ScheduleSpecProblem | undefined {
  if (spec.timezone !== undefined) {
    try {
      new Intl.DateTimeFormat("en-US", { timeZone: spec.timezone });
    } catch {
      return {
        code: "invalid_timezone",
        message: `Unknown time zone "${spec.timezone}": expected an IANA name such as "Europe/Paris".`,
      };
    }
  }
  if (spec.cron !== undefined) {
    try {
      cronOf(spec);
    } catch (error) {
      return {
        code: "invalid_cron",
        message: `Invalid cron pattern "${spec.cron}": ${(error as Error).message}`,
      };
    }
  }
  return undefined;
}

/**
 * The first tick strictly after `afterMs`.
 *
 * @param spec - a spec {@link checkScheduleSpec} accepted.
 * @param afterMs - Unix ms.
 * @returns the tick, Unix ms (whole seconds for cron), or undefined when none follows.
 */
export function nextTickAfter(spec: ScheduleSpec, afterMs: number): number | undefined {
  if (spec.atMs !== undefined) return spec.atMs > afterMs ? spec.atMs : undefined;
  const next = cronOf(spec).nextRun(new Date(afterMs));
  return next === null ? undefined : next.getTime();
}

/**
 * The last tick strictly before `beforeMs`.
 *
 * @param spec - a spec {@link checkScheduleSpec} accepted.
 * @param beforeMs - Unix ms.
 * @returns the tick, Unix ms, or undefined when none precedes it.
 */
export function previousTickBefore(spec: ScheduleSpec, beforeMs: number): number | undefined {
  if (spec.atMs !== undefined) return spec.atMs < beforeMs ? spec.atMs : undefined;
  const [previous] = cronOf(spec).previousRuns(1, new Date(beforeMs - 1));
  return previous?.getTime();
}

/** The ticks due when a firing of `tickMs` is processed at `nowMs`. */
export interface DueTicks {
  /** The latest tick at or before now (`tickMs` itself when the firing came early). */
  readonly latestMs: number;
  /** The first due tick (`tickMs`). */
  readonly firstMs: number;
  /** How many ticks are due, `tickMs` and `latestMs` included (≥ 1, at most {@link MAX_COUNTED_TICKS}). */
  readonly count: number;
}

/**
 * The ticks from `tickMs` (the one whose timer fired) up to `nowMs`, both
 * included: more than one when hosts were down past later ticks.
 *
 * @param spec - a spec {@link checkScheduleSpec} accepted.
 * @param tickMs - the tick the timer was armed for, Unix ms.
 * @param nowMs - the stream time of the firing, Unix ms.
 * @returns the first and latest due tick and their count.
 */
export function dueTicks(spec: ScheduleSpec, tickMs: number, nowMs: number): DueTicks {
  if (spec.atMs !== undefined || nowMs <= tickMs) {
    return { latestMs: tickMs, firstMs: tickMs, count: 1 };
  }
  const cron = cronOf(spec);
  let latestMs = tickMs;
  let count = 1;
  for (;;) {
    const next = cron.nextRun(new Date(latestMs));
    if (next === null || next.getTime() > nowMs) break;
    latestMs = next.getTime();
    count += 1;
    if (count >= MAX_COUNTED_TICKS) {
      const [previous] = cron.previousRuns(1, new Date(nowMs + 1));
      if (previous !== undefined && previous.getTime() > latestMs) latestMs = previous.getTime();
      break;
    }
  }
  return { latestMs, firstMs: tickMs, count };
}

function cronOf(spec: ScheduleSpec): Cron {
  return new Cron(spec.cron ?? "", {
    paused: true,
    mode: "5-or-6-parts",
    ...(spec.timezone === undefined ? {} : { timezone: spec.timezone }),
  });
}
