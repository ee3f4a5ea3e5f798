/** Runs a task once a slot is free; see {@link createConcurrencyLimit}. */
export type ConcurrencyLimit = <T>(task: () => Promise<T>) => Promise<T>;

/**
 * At most `maxConcurrency` tasks at once, started in call order (what `p-limit`
 * does for the host). A finished task hands its slot straight to the oldest waiter.
 *
 * @param maxConcurrency - slots, at least 1.
 * @returns the limiter.
 */
export function createConcurrencyLimit(maxConcurrency: number): ConcurrencyLimit {
  let active = 0;
  let waiting: (() => void)[] = [];
  let head = 0;
  const release = (): void => {
    const next = waiting[head];
    if (next === undefined) {
      active -= 1;
      return;
    }
    head += 1;
    if (head > 1024 && head * 2 > waiting.length) {
      waiting = waiting.slice(head);
      head = 0;
    }
    next();
  };
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (active < maxConcurrency) active += 1;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      release();
    }
  };
}
