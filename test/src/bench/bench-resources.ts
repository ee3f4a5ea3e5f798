/**
 * What the benchmark has started and must stop — servers, hosts, pipelines — so
 * that a failure, Ctrl-C or the time limit still tears everything down.
 */
export class BenchResources {
  readonly #stops = new Map<object, () => Promise<void>>();

  /**
   * Remembers how to stop `resource`.
   *
   * @param resource - anything started by the benchmark.
   * @param stop - stops it; called at most once.
   * @returns `resource`.
   */
  track<T extends object>(resource: T, stop: (resource: T) => Promise<void>): T {
    this.#stops.set(resource, () => stop(resource));
    return resource;
  }

  /**
   * Stops `resource` now (if still tracked) and forgets it.
   *
   * @param resource - a tracked resource.
   */
  async release(resource: object): Promise<void> {
    const stop = this.#stops.get(resource);
    this.#stops.delete(resource);
    await stop?.();
  }

  /** Stops everything still tracked, newest first; failures are reported, not thrown. */
  async releaseAll(): Promise<void> {
    const stops = [...this.#stops.values()].reverse();
    this.#stops.clear();
    for (const stop of stops) {
      await stop().catch((error: unknown) => {
        process.stderr.write(`teardown: ${String(error)}\n`);
      });
    }
  }
}
