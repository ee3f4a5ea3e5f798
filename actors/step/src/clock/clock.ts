/**
 * Where the host reads the time: lease deadlines, passivation, outbox
 * confirmation, timestamps of the messages it writes (timer firings, effect
 * results) — every "now" of the runtime comes from one `Clock`, so a test can
 * drive it (see `ManualClock`).
 *
 * A clock only tells the time; it does not schedule. xstate's `Clock` is the
 * other half (`setTimeout`/`clearTimeout`, which its `SimulatedClock` fires on
 * `increment`), because xstate runs delays in process; a hosted machine's
 * delays are durable timers in Redis instead. The host's loops (lease
 * renewal, rebalancing, timer polling, housekeeping) and retry pauses still wait
 * in real time: they talk to real servers, which a simulated clock cannot
 * speed up. A manual clock therefore changes what the host believes the time
 * is, not how often it looks. Durable timers fall due by the Redis server's
 * clock (`RedisSnapshotStore.dueTimers`), and a machine's "now" is the stream
 * time of the message it processes; neither reads this clock.
 *
 * @see https://github.com/statelyai/xstate/blob/main/packages/core/src/SimulatedClock.ts
 *   (xstate's simulated clock, the model of `ManualClock`).
 */
export interface Clock {
  /** The current time as Unix time in ms (what `Date.now` returns). */
  now(): number;
}
