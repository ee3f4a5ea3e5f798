import type { Clock } from "./clock.js";

/**
 * The real clock, read with `Date.now`. The default of `ActorHost.start({ clock })` and
 * of the in-memory stores.
 *
 * @example
 * systemClock.now(); // e.g. 1767225600000
 */
export const systemClock: Clock = {
  now: () => Date.now(),
};
