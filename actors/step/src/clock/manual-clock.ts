import type { Clock } from "./clock.js";

/**
 * A clock that moves only when told to, for tests: passivation, lease deadlines
 * and outbox confirmation can be driven past hours of "time" in milliseconds of
 * real time (or held still while real time passes).
 *
 * @example
 * const clock = new ManualClock(systemClock.now());
 * const host = await ActorHost.start({ nats, redis, kinds, clock, settings: { passivateAfterMs: 3_600_000 } });
 * clock.advance(3_600_001); // the next housekeeping tick passivates idle actors
 */
export class ManualClock implements Clock {
  #nowMs: number;

  /**
   * @param startMs - the time to start at, Unix ms (default 0; pass `systemClock.now()`
   *   when the clock's time meets real timestamps, e.g. stream times).
   * @throws RangeError when `startMs` is not a finite number.
   */
  constructor(startMs = 0) {
    this.#nowMs = finite(startMs, "startMs");
  }

  /** The clock's current time, Unix ms. */
  now(): number {
    return this.#nowMs;
  }

  /**
   * Moves the clock forward.
   *
   * @param ms - how far, in ms (≥ 0).
   * @returns the new time, Unix ms.
   * @throws RangeError when `ms` is negative or not finite (a clock that goes
   *   back is {@link ManualClock.set}'s business).
   */
  advance(ms: number): number {
    if (finite(ms, "ms") < 0)
      throw new RangeError(`ManualClock.advance: ms must be ≥ 0, got ${ms}`);
    this.#nowMs += ms;
    return this.#nowMs;
  }

  /**
   * Sets the time, forwards or backwards (to test a clock that jumps).
   *
   * @param nowMs - the new time, Unix ms.
   * @throws RangeError when `nowMs` is not finite.
   */
  set(nowMs: number): void {
    this.#nowMs = finite(nowMs, "nowMs");
  }
}

function finite(value: number, name: string): number {
  if (!Number.isFinite(value))
    throw new RangeError(`ManualClock: ${name} must be finite, got ${value}`);
  return value;
}
