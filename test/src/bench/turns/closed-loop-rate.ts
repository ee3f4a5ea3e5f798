/**
 * The rate of a closed loop of sessions inside a window: each session's own
 * rate, (completions − 1) ÷ (last − first completion) over its completions in
 * the window, summed over sessions. Sessions of a closed loop started together
 * tend to stay in step (their turns complete in waves), so counting completions
 * in a window would be off by up to a wave; each session's cycle time is not.
 *
 * @param completionsBySession - completion times (ms) of each session, any order.
 * @param windowStartMs - start of the window (inclusive), same clock.
 * @param windowEndMs - end of the window (inclusive).
 * @returns turns per second, and the sessions with fewer than two completions in
 *   the window (they do not count).
 */
export function closedLoopRate(
  completionsBySession: ReadonlyMap<string, readonly number[]>,
  windowStartMs: number,
  windowEndMs: number,
): { readonly turnsPerSecond: number; readonly sessionsWithoutCycle: number } {
  let perMs = 0;
  let sessionsWithoutCycle = 0;
  for (const completions of completionsBySession.values()) {
    const inWindow = completions
      .filter((atMs) => atMs >= windowStartMs && atMs <= windowEndMs)
      .sort((a, b) => a - b);
    const first = inWindow[0];
    const last = inWindow.at(-1);
    if (first === undefined || last === undefined || inWindow.length < 2 || last === first) {
      sessionsWithoutCycle += 1;
      continue;
    }
    perMs += (inWindow.length - 1) / (last - first);
  }
  return { turnsPerSecond: perMs * 1000, sessionsWithoutCycle };
}
