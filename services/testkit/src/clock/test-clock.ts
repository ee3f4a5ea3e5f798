import { TroupeError } from "@troupe/protocol";
import type { Clock } from "@troupe/runtime";

/**
 * The controllable clock of a test deployment (docs/decisions/0023): the deployment's
 * time is the real time plus an offset that only {@link TestClock.advance}
 * changes, so it starts at the real time and only moves forward.
 *
 * What moves with it: **durable timers** (an xstate `after` in a hosted machine
 * — the tool call's approval timeout, default 24 h — is a deadline in Redis,
 * computed from the stream time of the message that armed it). `advance(ms)`
 * brings every timer armed at that moment `ms` closer, so a 24 h approval
 * timeout fires within one timer poll (100 ms by default) of
 * `await clock.advance(24 * 60 * 60 * 1000)`. A timer armed later counts from
 * the time it is armed.
 *
 * What does not: the hosts keep the real clock (a jump of their clock would
 * count as missed lease renewals and stop them serving their shards), so
 * passivation and lease TTLs run in real time; a machine's "now" is still the
 * stream time of the message it processes; model and tool timeouts are real
 * waits.
 *
 * @example
 * ```ts
 * const approval = await deployment.waitForApproval("s1");
 * await deployment.clock.advance(24 * 60 * 60 * 1000); // a day passes for the timers
 * await deployment.expectEvents("s1", [{ type: "tool.approval_settled", payload: { decision: "timed_out" } }]);
 * ```
 */
export class TestClock implements Clock {
  #offsetMs = 0;
  readonly #moveTimers: (ms: number) => Promise<number>;

  /**
   * @param moveTimers - lets `ms` pass for the deployment's armed durable timers;
   *   returns how many it moved.
   */
  constructor(moveTimers: (ms: number) => Promise<number>) {
    this.#moveTimers = moveTimers;
  }

  /** The deployment's time, Unix ms: the real time plus every `advance` so far. */
  now(): number {
    return Date.now() + this.#offsetMs;
  }

  /** How far the clock was advanced in total, in ms. */
  get offsetMs(): number {
    return this.#offsetMs;
  }

  /**
   * Lets `ms` pass: the deployment's time moves forward and every durable
   * timer armed now comes `ms` closer (one Redis script over the timer sets).
   * Resolves once the timers are moved; the hosts fire those now due at their
   * next timer poll (wait for the events they cause, e.g. with `expectEvents`).
   *
   * @param ms - how far, in ms (≥ 0; `24 * 60 * 60 * 1000` is a day).
   * @returns the deployment's new time, Unix ms.
   * @throws TroupeError (`invalid_options`) when `ms` is negative or not a finite
   *   number; the clock and the timers are left as they were.
   */
  async advance(ms: number): Promise<number> {
    if (typeof ms !== "number" || !Number.isFinite(ms) || ms < 0) {
      throw new TroupeError(
        "invalid_options",
        `clock.advance: ms must be a finite number of milliseconds ≥ 0, got ${String(ms)}` +
          " (the test clock only moves forward)",
        { details: { ms } },
      );
    }
    await this.#moveTimers(ms);
    this.#offsetMs += ms;
    return this.now();
  }
}
