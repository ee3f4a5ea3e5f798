/** An item and when it arrived (Unix ms, fractional). */
export interface Arrival<T> {
  readonly item: T;
  readonly arrivedAtMs: number;
}

interface Waiter<T> {
  readonly matches: (item: T) => boolean;
  readonly resolve: (arrival: Arrival<T>) => void;
  readonly reject: (error: Error) => void;
  readonly timer: NodeJS.Timeout;
}

/**
 * Hands items arriving on a stream (events of a session) to whoever waits for
 * one: {@link ArrivalWaiters.expect} registers a predicate before the action
 * that causes the item (so it cannot be missed), {@link ArrivalWaiters.deliver}
 * resolves every waiter the item matches, oldest first. Items nobody waits for
 * are dropped. Used by the gateway benchmark (issue #16) to time the events of
 * a turn on a `TroupeClient.events` iteration and on an SSE stream alike.
 */
export class ArrivalWaiters<T> {
  readonly #waiters = new Set<Waiter<T>>();
  #failure: Error | undefined;

  /**
   * Waits for the next item matching `matches` delivered after this call.
   *
   * @param matches - the predicate.
   * @param timeoutMs - longest wait, in ms.
   * @param label - names the wait in the timeout error.
   * @returns the matching item and its arrival time.
   * @throws Error after `timeoutMs`, or the error given to {@link ArrivalWaiters.fail}.
   */
  expect(matches: (item: T) => boolean, timeoutMs: number, label: string): Promise<Arrival<T>> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    return new Promise<Arrival<T>>((resolve, reject) => {
      const waiter: Waiter<T> = {
        matches,
        resolve,
        reject,
        timer: setTimeout(() => {
          this.#waiters.delete(waiter);
          reject(new Error(`${label}: nothing within ${timeoutMs} ms`));
        }, timeoutMs),
      };
      this.#waiters.add(waiter);
    });
  }

  /**
   * Resolves every waiting predicate that `item` matches.
   *
   * @param item - the item.
   * @param arrivedAtMs - when it arrived.
   */
  deliver(item: T, arrivedAtMs: number): void {
    for (const waiter of this.#waiters) {
      if (!waiter.matches(item)) continue;
      clearTimeout(waiter.timer);
      this.#waiters.delete(waiter);
      waiter.resolve({ item, arrivedAtMs });
    }
  }

  /**
   * Rejects every waiter, now and later, with `error` (the stream ended).
   *
   * @param error - why.
   */
  fail(error: Error): void {
    this.#failure ??= error;
    for (const waiter of this.#waiters) {
      clearTimeout(waiter.timer);
      waiter.reject(error);
    }
    this.#waiters.clear();
  }

  /** Waiters not yet resolved. */
  get waiting(): number {
    return this.#waiters.size;
  }
}
