import {
  MAX_TOOL_EXECUTION_ATTEMPTS,
  type ToolEffectClass,
  isRetryableEffectClass,
} from "./define-tool.js";
import type {
  BeginOptions,
  IdempotencyRecordDecision,
  IdempotencyRecord,
  IdempotencyRecordStatus,
  IdempotencyRecordStore,
} from "./idempotency-record-store.js";

/** Options of {@link InMemoryIdempotencyRecordStore}. */
export interface InMemoryIdempotencyRecordStoreOptions {
  /** Execution attempts in all for retryable classes; default 3 (`MAX_TOOL_EXECUTION_ATTEMPTS`). */
  readonly maxExecutionAttempts?: number;
  /** Clock for the timestamps, Unix ms; default `Date.now`. */
  readonly now?: () => number;
}

interface MutableRecord {
  state: IdempotencyRecord["state"];
  executionAttempts: number;
  effectClass?: ToolEffectClass;
  /** JSON text of the result, like the Redis store keeps it. */
  resultJson?: string;
  createdAtMs: number;
  startedAtMs?: number;
  completedAtMs?: number;
  liveUntilMs?: number;
}

/**
 * A {@link IdempotencyRecordStore} in process memory, for unit tests and single-process
 * demos: the same decisions as `RedisIdempotencyRecordStore` (it passes the same contract
 * suite), results round-trip through JSON, but nothing survives the process
 * and nothing expires.
 *
 * @example
 * ```ts
 * const records = new InMemoryIdempotencyRecordStore();
 * await records.begin("s1/r1/c1", "read"); // { kind: "run", executionAttempt: 1 }
 * ```
 */
export class InMemoryIdempotencyRecordStore implements IdempotencyRecordStore {
  readonly #records = new Map<string, MutableRecord>();
  /** See {@link IdempotencyRecordStore.maxExecutionAttempts}. */
  readonly maxExecutionAttempts: number;
  readonly #now: () => number;

  /** @param options - see {@link InMemoryIdempotencyRecordStoreOptions}. */
  constructor(options: InMemoryIdempotencyRecordStoreOptions = {}) {
    this.maxExecutionAttempts = options.maxExecutionAttempts ?? MAX_TOOL_EXECUTION_ATTEMPTS;
    this.#now = options.now ?? Date.now;
  }

  /** See {@link IdempotencyRecordStore.begin}. */
  begin(
    key: string,
    effectClass: ToolEffectClass,
    options: BeginOptions = {},
  ): Promise<IdempotencyRecordDecision> {
    const now = this.#now();
    const record = this.#records.get(key);
    const liveUntil =
      options.livenessMs === undefined ? {} : { liveUntilMs: now + options.livenessMs };
    if (record === undefined) {
      this.#records.set(key, {
        state: "started",
        executionAttempts: 1,
        effectClass,
        createdAtMs: now,
        startedAtMs: now,
        ...liveUntil,
      });
      return Promise.resolve({ kind: "run", executionAttempt: 1 });
    }
    if (record.state !== "started") {
      return Promise.resolve({
        kind: "reuse",
        status: record.state,
        result: JSON.parse(record.resultJson ?? "null") as unknown,
      });
    }
    if (
      record.liveUntilMs !== undefined &&
      record.liveUntilMs > now &&
      options.retryingAttempt !== record.executionAttempts
    ) {
      return Promise.resolve({
        kind: "running",
        executionAttempts: record.executionAttempts,
        liveForMs: record.liveUntilMs - now,
      });
    }
    if (
      isRetryableEffectClass(effectClass) &&
      record.executionAttempts < this.maxExecutionAttempts
    ) {
      record.executionAttempts += 1;
      record.startedAtMs = now;
      if (liveUntil.liveUntilMs === undefined) delete record.liveUntilMs;
      else record.liveUntilMs = liveUntil.liveUntilMs;
      return Promise.resolve({ kind: "run", executionAttempt: record.executionAttempts });
    }
    return Promise.resolve({
      kind: "outcome_unknown",
      executionAttempts: record.executionAttempts,
    });
  }

  /** See {@link IdempotencyRecordStore.keepAlive}. */
  keepAlive(key: string, executionAttempt: number, livenessMs: number): Promise<boolean> {
    const record = this.#records.get(key);
    if (record?.state !== "started" || record.executionAttempts !== executionAttempt) {
      return Promise.resolve(false);
    }
    record.liveUntilMs = this.#now() + livenessMs;
    return Promise.resolve(true);
  }

  /** See {@link IdempotencyRecordStore.complete}. */
  complete(
    key: string,
    status: IdempotencyRecordStatus,
    result: unknown,
  ): Promise<{ status: IdempotencyRecordStatus; result: unknown }> {
    const resultJson = JSON.stringify(result ?? null);
    const now = this.#now();
    const record = this.#records.get(key) ?? {
      state: "started",
      executionAttempts: 0,
      createdAtMs: now,
    };
    if (record.state === "started") {
      delete record.liveUntilMs;
      record.state = status;
      record.resultJson = resultJson;
      record.completedAtMs = now;
      this.#records.set(key, record);
    }
    return Promise.resolve({
      status: record.state,
      result: JSON.parse(record.resultJson ?? "null") as unknown,
    });
  }

  /** See {@link IdempotencyRecordStore.get}. */
  get(key: string): Promise<IdempotencyRecord | undefined> {
    const record = this.#records.get(key);
    if (record === undefined) return Promise.resolve(undefined);
    const { resultJson, ...rest } = record;
    return Promise.resolve({
      ...rest,
      ...(resultJson === undefined ? {} : { result: JSON.parse(resultJson) as unknown }),
    });
  }
}
