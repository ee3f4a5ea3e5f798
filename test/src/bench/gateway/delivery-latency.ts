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
  /** `missing` by event type (types from `typeOf`; `unknown` without one). */
  readonly missingByType: Readonly<Record<string, number>>;
}

/**
 * Matches followers' arrivals to the reference by event id.
 *
 * @param publishedAtMs - event id → publish time (ms) of the events measured.
 * @param followers - per follower, event id → arrival time (ms); ids not in
 *   `publishedAtMs` (outside the window) are ignored.
 * @param typeOf - event id → event type, to count what was missed by type.
 * @returns the delays and what was missed.
 */
export function deliveryLatencies(
  publishedAtMs: ReadonlyMap<string, number>,
  followers: readonly ReadonlyMap<string, number>[],
  typeOf: ReadonlyMap<string, string> = new Map(),
): DeliveryLatencies {
  const latenciesMs: number[] = [];
  const missingByType: Record<string, number> = {};
  let missing = 0;
  let followersMissing = 0;
  for (const arrivals of followers) {
    let missed = 0;
    for (const [id, publishedMs] of publishedAtMs) {
      const arrivedMs = arrivals.get(id);
      if (arrivedMs !== undefined) {
        latenciesMs.push(arrivedMs - publishedMs);
        continue;
      }
      missed += 1;
      const type = typeOf.get(id) ?? "unknown";
      missingByType[type] = (missingByType[type] ?? 0) + 1;
    }
    missing += missed;
    if (missed > 0) followersMissing += 1;
  }
  return { latenciesMs, missing, followersMissing, missingByType };
}
