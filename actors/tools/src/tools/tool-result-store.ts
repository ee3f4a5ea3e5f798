/**
 * Keeps the full text of tool results that reached the model truncated, by
 * reference. The reference is the call's
 * idempotency key, so re-running a call overwrites the same entry.
 */
export interface ToolResultStore {
  /**
   * Stores a full result.
   *
   * @param ref - the reference (the call's idempotency key).
   * @param content - the full result text.
   */
  put(ref: string, content: string): Promise<void>;
  /**
   * Reads a full result.
   *
   * @param ref - a `resultRef` of a `tool.execute` output.
   * @returns the text, or undefined when unknown or expired.
   */
  get(ref: string): Promise<string | undefined>;
}

/**
 * A {@link ToolResultStore} in process memory (tests, demos); nothing expires.
 *
 * @example
 * ```ts
 * const results = new InMemoryToolResultStore();
 * await results.put("s1/r1/c1", "…");
 * ```
 */
export class InMemoryToolResultStore implements ToolResultStore {
  readonly #results = new Map<string, string>();

  /** See {@link ToolResultStore.put}. */
  put(ref: string, content: string): Promise<void> {
    this.#results.set(ref, content);
    return Promise.resolve();
  }

  /** See {@link ToolResultStore.get}. */
  get(ref: string): Promise<string | undefined> {
    return Promise.resolve(this.#results.get(ref));
  }
}
