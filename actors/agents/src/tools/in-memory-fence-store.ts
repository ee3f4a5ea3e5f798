import { MAX_TOOL_ATTEMPTS, type ToolEffectClass, isRetryableEffectClass } from "./define-tool.js";
import type { FenceDecision, FenceRecord, FenceStatus, FenceStore } from "./fence-store.js";

/** Options of {@link InMemoryFenceStore}. */
export interface InMemoryFenceStoreOptions {
  /** Attempts in all for retryable classes; default 3 (`MAX_TOOL_ATTEMPTS`). */
  readonly maxAttempts?: number;
  /** Clock for the timestamps, Unix ms; default `Date.now`. */
  readonly now?: () => number;
}

interface MutableFence {
  state: FenceRecord["state"];
  attempts: number;
  effectClass?: ToolEffectClass;
  /** JSON text of the result, like the Redis store keeps it. */
  resultJson?: string;
  createdAtMs: number;
  startedAtMs?: number;
  completedAtMs?: number;
}

/**
 * A {@link FenceStore} in process memory, for unit tests and single-process
 * demos: the same decisions as `RedisFenceStore` (it passes the same contract
 * suite), results round-trip through JSON, but nothing survives the process
 * and nothing expires.
 *
 * @example
 * ```ts
 * const fences = new InMemoryFenceStore();
 * await fences.begin("s1/r1/c1", "read"); // { kind: "run", attempt: 1 }
 * ```
 */
export class InMemoryFenceStore implements FenceStore {
  readonly #fences = new Map<string, MutableFence>();
  /** See {@link FenceStore.maxAttempts}. */
  readonly maxAttempts: number;
  readonly #now: () => number;

  /** @param options - see {@link InMemoryFenceStoreOptions}. */
  constructor(options: InMemoryFenceStoreOptions = {}) {
    this.maxAttempts = options.maxAttempts ?? MAX_TOOL_ATTEMPTS;
    this.#now = options.now ?? Date.now;
  }

  /** See {@link FenceStore.begin}. */
  begin(key: string, effectClass: ToolEffectClass): Promise<FenceDecision> {
    const now = this.#now();
    const fence = this.#fences.get(key);
    if (fence === undefined) {
      this.#fences.set(key, {
        state: "started",
        attempts: 1,
        effectClass,
        createdAtMs: now,
        startedAtMs: now,
      });
      return Promise.resolve({ kind: "run", attempt: 1 });
    }
    if (fence.state !== "started") {
      return Promise.resolve({
        kind: "reuse",
        status: fence.state,
        result: JSON.parse(fence.resultJson ?? "null") as unknown,
      });
    }
    if (isRetryableEffectClass(effectClass) && fence.attempts < this.maxAttempts) {
      fence.attempts += 1;
      fence.startedAtMs = now;
      return Promise.resolve({ kind: "run", attempt: fence.attempts });
    }
    return Promise.resolve({ kind: "outcome_unknown", attempts: fence.attempts });
  }

  /** See {@link FenceStore.complete}. */
  complete(
    key: string,
    status: FenceStatus,
    result: unknown,
  ): Promise<{ status: FenceStatus; result: unknown }> {
    const resultJson = JSON.stringify(result ?? null);
    const now = this.#now();
    const fence = this.#fences.get(key) ?? { state: "started", attempts: 0, createdAtMs: now };
    if (fence.state === "started") {
      fence.state = status;
      fence.resultJson = resultJson;
      fence.completedAtMs = now;
      this.#fences.set(key, fence);
    }
    return Promise.resolve({
      status: fence.state,
      result: JSON.parse(fence.resultJson ?? "null") as unknown,
    });
  }

  /** See {@link FenceStore.get}. */
  get(key: string): Promise<FenceRecord | undefined> {
    const fence = this.#fences.get(key);
    if (fence === undefined) return Promise.resolve(undefined);
    const { resultJson, ...rest } = fence;
    return Promise.resolve({
      ...rest,
      ...(resultJson === undefined ? {} : { result: JSON.parse(resultJson) as unknown }),
    });
  }
}
