import type { ToolEffectClass } from "./define-tool.js";

/** Time an idempotency record (and a stored full result) is kept after its last change, in ms, by default: 7 days. */
export const DEFAULT_IDEMPOTENCY_RECORD_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** The final status an idempotency record holds: the call produced a result, or failed for good. */
export type IdempotencyRecordStatus = "succeeded" | "failed";

/** State of an idempotency record: `started` (an execution attempt began, no result yet) or a final {@link IdempotencyRecordStatus}. */
export type IdempotencyRecordState = "started" | IdempotencyRecordStatus;

/**
 * What {@link IdempotencyRecordStore.begin} decides for a call.
 *
 * - `run` — run the tool now; `executionAttempt` is 1-based and counts every
 *   execution attempt of this call on any host.
 * - `reuse` — a final result is recorded (success or final failure): hand it
 *   back, never run again. `result` is the plain data given to `complete`.
 * - `outcome_unknown` — an execution attempt started and recorded nothing, and
 *   the call may not run again: a `non_idempotent_write` or `unclassified`
 *   call, or a `read` / `idempotent_write` call whose execution attempts are
 *   used up. `executionAttempts` counts the execution attempts begun.
 *
 * Shape: `{ kind: "run", executionAttempt } | { kind: "reuse", status, result } | { kind: "outcome_unknown", executionAttempts }`.
 */
export type IdempotencyRecordDecision =
  | { readonly kind: "run"; readonly executionAttempt: number }
  | { readonly kind: "reuse"; readonly status: IdempotencyRecordStatus; readonly result: unknown }
  | { readonly kind: "outcome_unknown"; readonly executionAttempts: number };

/**
 * An idempotency record as stored, for inspection. Times are Unix ms of the store's clock
 * (the Redis server's for `RedisIdempotencyRecordStore`).
 *
 * Shape: `{ state, executionAttempts, effectClass?, result?, createdAtMs, startedAtMs?, completedAtMs? }`.
 */
export interface IdempotencyRecord {
  readonly state: IdempotencyRecordState;
  /** Execution attempts begun (0 when `complete` came without `begin`). */
  readonly executionAttempts: number;
  /** The effect class of the first `begin`. */
  readonly effectClass?: ToolEffectClass;
  /** The recorded result (final states only). */
  readonly result?: unknown;
  readonly createdAtMs: number;
  /** When the latest execution attempt began. */
  readonly startedAtMs?: number;
  readonly completedAtMs?: number;
}

/**
 * Idempotency records of tool calls, one per call, keyed by its idempotency
 * key `<sessionId>/<runId>/<toolCallId>`. They make a tool call run at most once (`non_idempotent_write`,
 * `unclassified`) or at most `MAX_TOOL_EXECUTION_ATTEMPTS` (3) times (`read`,
 * `idempotent_write`), whatever the number of hosts and restarts, and let a
 * recorded result be reused instead of running again.
 *
 * Contract (checked by `idempotencyRecordStoreContractCases` against every implementation):
 * - `begin` and `complete` are atomic per key; of concurrent `begin`s on a new
 *   key exactly one gets `run` with execution attempt 1.
 * - `begin` on a key without a record records `started`, execution attempt 1, → `run`.
 * - `begin` on a final record → `reuse` with its status and result, for every class.
 * - `begin` on `started`: a retryable class with execution attempts below the
 *   maximum counts one more → `run`; otherwise → `outcome_unknown`. A failed
 *   execution attempt that will be retried is not completed: it stays `started`.
 * - `complete` records the final status and result unless one is recorded
 *   already (the first wins) and returns the recorded one.
 * - Results round-trip as JSON (plain data).
 */
export interface IdempotencyRecordStore {
  /** Execution attempts in all for `read` / `idempotent_write` calls (default 3); the handler retries below it. */
  readonly maxExecutionAttempts: number;
  /**
   * Decides whether a call may run, counting the execution attempt when it may.
   *
   * @param key - the idempotency key.
   * @param effectClass - the tool's effect class.
   * @returns see {@link IdempotencyRecordDecision}.
   */
  begin(key: string, effectClass: ToolEffectClass): Promise<IdempotencyRecordDecision>;
  /**
   * Records the final outcome of a call (first one wins).
   *
   * @param key - the idempotency key.
   * @param status - `succeeded` or `failed` (a final failure: never run again).
   * @param result - plain data (JSON-serialisable).
   * @returns the recorded outcome: this one, or the one recorded before.
   */
  complete(
    key: string,
    status: IdempotencyRecordStatus,
    result: unknown,
  ): Promise<{ status: IdempotencyRecordStatus; result: unknown }>;
  /**
   * The idempotency record of a key, for inspection and tests.
   *
   * @param key - the idempotency key.
   * @returns the record, or undefined when there is none (never begun, or expired).
   */
  get(key: string): Promise<IdempotencyRecord | undefined>;
}
