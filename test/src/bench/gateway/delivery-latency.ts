/**
 * Per-follower delivery latencies of a fan-out run (issue #16): for each
 * follower and each event published in the measured window, the follower's
 * arrival time minus the event's publish time (its arrival on a core NATS
 * subscription of the benchmark, the reference).
 */
export interface DeliveryLatencies {
  /** Every (follower, event) delay, in ms, in no particular order. */
  readonly latenciesMs: number[];
  /** (follower, event) pairs the follower never received. */
  readonly missing: number;
  /** Followers that missed at least one event. */
  readonly followersMissing: number;
}

/**
 * Matches followers' arrivals to the reference by event id.
 *
 * @param publishedAtMs - event id → publish time (ms) of the events measured.
 * @param followers - per follower, event id → arrival time (ms); ids not in
 *   `publishedAtMs` (outside the window) are ignored.
 * @returns the delays and what was missed.
 */
export function deliveryLatencies(
  publishedAtMs: ReadonlyMap<string, number>,
  followers: readonly ReadonlyMap<string, number>[],
): DeliveryLatencies {
  const latenciesMs: number[] = [];
  let missing = 0;
  let followersMissing = 0;
  for (const arrivals of followers) {
    let missed = 0;
    for (const [id, publishedMs] of publishedAtMs) {
      const arrivedMs = arrivals.get(id);
      if (arrivedMs === undefined) missed += 1;
      else latenciesMs.push(arrivedMs - publishedMs);
    }
    missing += missed;
    if (missed > 0) followersMissing += 1;
  }
  return { latenciesMs, missing, followersMissing };
}
