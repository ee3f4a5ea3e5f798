/**
 * The lines `troupe chat` reads, in the order they come, for whoever takes
 * them (docs/decisions/0018): a line typed or pasted while an answer streams is queued
 * and becomes the next message when the prompt returns, instead of being lost.
 *
 * Two ways to take a line:
 * - {@link InputQueue.next} (the next message, and any answer when stdin is not
 *   a terminal): the oldest queued line, else the next one to come;
 * - {@link InputQueue.nextTyped} (an approval or a question asked in a
 *   terminal): the next line to come *after the call* — lines typed before the
 *   question appeared stay queued as messages, as the user meant them.
 *
 * One taker at a time. After {@link InputQueue.end} (EOF, Ctrl-D) queued lines
 * are still served; a taker then gets `undefined` once nothing is left. Pure:
 * no IO.
 */
export class InputQueue {
  private readonly lines: string[] = [];
  private waiter: { readonly fresh: boolean; resolve(line: string | undefined): void } | undefined;
  private isEnded = false;

  /** Lines queued and not taken yet. */
  get size(): number {
    return this.lines.length;
  }

  /** Whether the input ended: no line will come after the queued ones. */
  get ended(): boolean {
    return this.isEnded;
  }

  /**
   * A line came (readline's `line` event): to the waiting taker, else queued.
   * Ignored after {@link InputQueue.end}.
   *
   * @param line - the line without its line break.
   */
  push(line: string): void {
    if (this.isEnded) return;
    const waiter = this.waiter;
    if (waiter !== undefined) {
      this.waiter = undefined;
      waiter.resolve(line);
      return;
    }
    this.lines.push(line);
  }

  /** The input ended (EOF): a taker with nothing left to take gets `undefined`. */
  end(): void {
    this.isEnded = true;
    const waiter = this.waiter;
    if (waiter === undefined) return;
    // A `next` taker waits only when nothing is queued; a `nextTyped` one never
    // takes queued lines: either way nothing more is coming for it.
    this.waiter = undefined;
    waiter.resolve(undefined);
  }

  /** Drops the queued lines (the user leaves the chat). */
  discard(): void {
    this.lines.length = 0;
  }

  /**
   * The oldest queued line, else the next line to come.
   *
   * @param signal - aborting it rejects with its reason and frees the taker's place.
   * @returns the line, or `undefined` when the input ended and nothing is queued.
   * @throws `Error` when another taker waits (a bug in the caller).
   */
  next(signal?: AbortSignal): Promise<string | undefined> {
    const queued = this.lines.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    return this.wait(false, signal);
  }

  /**
   * The next line to come after this call; queued lines stay queued.
   *
   * @param signal - aborting it rejects with its reason and frees the taker's place.
   * @returns the line, or `undefined` when the input ended.
   * @throws `Error` when another taker waits (a bug in the caller).
   */
  nextTyped(signal?: AbortSignal): Promise<string | undefined> {
    return this.wait(true, signal);
  }

  private wait(fresh: boolean, signal: AbortSignal | undefined): Promise<string | undefined> {
    if (signal?.aborted === true) return Promise.reject(signal.reason as Error);
    if (this.isEnded) return Promise.resolve(undefined);
    if (this.waiter !== undefined) {
      return Promise.reject(new Error("InputQueue: another line is already awaited"));
    }
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        if (this.waiter === waiter) this.waiter = undefined;
        reject(signal?.reason as Error);
      };
      const waiter = {
        fresh,
        resolve: (line: string | undefined) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(line);
        },
      };
      this.waiter = waiter;
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }
}
