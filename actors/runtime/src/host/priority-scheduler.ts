import { PRIORITY_CLASSES, type PriorityClass } from "@troupe/protocol";

/** How to build a {@link PriorityScheduler}. */
export interface PrioritySchedulerOptions {
  /** Tasks running at the same time: a whole number, 1 or more (the host's `maxConcurrency`). */
  readonly concurrency: number;
  /**
   * How many starts in a row higher classes may take while a lower class
   * waits: a whole number, 1 or more; default {@link DEFAULT_PRIORITY_PASS_OVER_LIMIT}.
   * The next start then goes to the oldest task of the waiting class.
   */
  readonly passOverLimit?: number;
}

/** Default `passOverLimit`: a waiting class gets at least 1 of every 10 starts. */
export const DEFAULT_PRIORITY_PASS_OVER_LIMIT = 9;

interface Waiting {
  readonly run: () => void;
}

/**
 * A concurrency limit that starts queued tasks by scheduling class
 * (docs/decisions/0057, docs/operating/flow-control.md): `interactive` before `default` before `batch`, oldest
 * first within a class, without starving the lower classes.
 *
 * Fairness rule: each class counts the starts higher classes took while it
 * waited. Once a waiting class was passed over `passOverLimit` times, the next
 * start is its oldest task (the lowest such class first) and its count goes
 * back to 0. So while a class waits it gets at least one of every
 * `passOverLimit + 1` starts, and a task at position k of its class starts
 * within about `k × (passOverLimit + 1)` starts, whatever arrives above it;
 * a higher class loses at most one start in `passOverLimit + 1` to each
 * waiting lower class. Counting starts, not time, keeps the rule independent of
 * how long tasks take, and makes it testable without clocks.
 *
 * Pure bookkeeping: no timers, no IO; a task's failure is its caller's.
 *
 * @example
 * const scheduler = new PriorityScheduler({ concurrency: 256 });
 * await scheduler.run(() => processMessage(message), "interactive");
 */
export class PriorityScheduler {
  readonly #concurrency: number;
  readonly #passOverLimit: number;
  /** Waiting tasks per class, in {@link PRIORITY_CLASSES} order, oldest first. */
  readonly #queues: Waiting[][] = PRIORITY_CLASSES.map(() => []);
  /** Starts higher classes took while each class waited. */
  readonly #passedOver: number[] = PRIORITY_CLASSES.map(() => 0);
  #active = 0;

  /**
   * @param options - concurrency and fairness.
   * @throws RangeError when `concurrency` or `passOverLimit` is not a whole number ≥ 1.
   */
  constructor(options: PrioritySchedulerOptions) {
    const passOverLimit = options.passOverLimit ?? DEFAULT_PRIORITY_PASS_OVER_LIMIT;
    if (!Number.isInteger(options.concurrency) || options.concurrency < 1)
      throw new RangeError(`concurrency must be a whole number ≥ 1, got ${options.concurrency}`);
    if (!Number.isInteger(passOverLimit) || passOverLimit < 1)
      throw new RangeError(`passOverLimit must be a whole number ≥ 1, got ${passOverLimit}`);
    this.#concurrency = options.concurrency;
    this.#passOverLimit = passOverLimit;
  }

  /** Tasks running now. */
  get active(): number {
    return this.#active;
  }

  /**
   * Tasks waiting for a slot.
   *
   * @param priority - one class; all classes when omitted.
   */
  pending(priority?: PriorityClass): number {
    if (priority !== undefined) return this.#queues[indexOf(priority)]?.length ?? 0;
    return this.#queues.reduce((sum, queue) => sum + queue.length, 0);
  }

  /**
   * Runs `task` once a slot is free and it is its class's turn.
   *
   * @param task - the work; its result or error is passed through.
   * @param priority - its class; default `default`.
   * @returns what `task` resolves to.
   */
  run<T>(task: () => Promise<T>, priority: PriorityClass = "default"): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        this.#active += 1;
        // A task that throws at once rejects like one that fails later.
        const running = Promise.resolve().then(task);
        void running.then(resolve, reject).finally(() => {
          this.#active -= 1;
          this.#startNext();
        });
      };
      this.#queues[indexOf(priority)]?.push({ run: start });
      this.#startNext();
    });
  }

  #startNext(): void {
    while (this.#active < this.#concurrency) {
      const next = this.#choose();
      if (next === undefined) return;
      const waiting = this.#queues[next]?.shift();
      waiting?.run();
    }
  }

  /** The class whose oldest task starts next (see the fairness rule), or undefined when none waits. */
  #choose(): number | undefined {
    const classes = this.#queues.length;
    // A class passed over too often goes first (the lowest such class first).
    for (let index = classes - 1; index > 0; index -= 1) {
      if (
        (this.#queues[index]?.length ?? 0) > 0 &&
        (this.#passedOver[index] ?? 0) >= this.#passOverLimit
      ) {
        this.#passedOver[index] = 0;
        return index;
      }
    }
    const highest = this.#queues.findIndex((queue) => queue.length > 0);
    if (highest < 0) return undefined;
    for (let index = highest + 1; index < classes; index += 1) {
      if ((this.#queues[index]?.length ?? 0) > 0)
        this.#passedOver[index] = (this.#passedOver[index] ?? 0) + 1;
    }
    this.#passedOver[highest] = 0;
    return highest;
  }
}

function indexOf(priority: PriorityClass): number {
  const index = PRIORITY_CLASSES.indexOf(priority);
  return index < 0 ? PRIORITY_CLASSES.indexOf("default") : index;
}
