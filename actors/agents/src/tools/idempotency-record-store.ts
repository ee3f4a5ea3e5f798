import type { ToolEffectClass } from "./define-tool.js";

/** Time an idempotency record (and a stored full result) is kept after its last change, in ms, by default: 7 days. */
export const DEFAULT_IDEMPOTENCY_RECORD_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** The final status an idempotency record holds: the call produced a result, or failed for good. */
export type IdempotencyRecordStatus = "succeeded" | "failed";

/** State of an idempotency record: `started` (an attempt began, no result yet) or a final {@link IdempotencyRecordStatus}. */
export type IdempotencyRecordState = "started" | IdempotencyRecordStatus;

/**
 * What {@link IdempotencyRecordStore.begin} decides for a call.
 *
 * - `run` — run the tool now; `attempt` is 1-based and counts every attempt of
 *   this call on any host.
 * - `reuse` — a final result is recorded (success or final failure): hand it
 *   back, never run again. `result` is the plain data given to `complete`.
 * - `outcome_unknown` — an attempt started and recorded nothing, and the call
 *   may not run again: a `non_idempotent_write` or `unclassified` call, or a
 *   `read` / `idempotent_write` call whose attempts are used up. `attempts`
 *   counts the attempts begun.
 *
 * Shape: `{ kind: "run", attempt } | { kind: "reuse", status, result } | { kind: "outcome_unknown", attempts }`.
 */
export type IdempotencyRecordDecision =
  | { readonly kind: "run"; readonly attempt: number }
  | { readonly kind: "reuse"; readonly status: IdempotencyRecordStatus; readonly result: unknown }
  | { readonly kind: "outcome_unknown"; readonly attempts: number };

/**
 * An idempotency record as stored, for inspection. Times are Unix ms of the store's clock
 * (the Redis server's for `RedisIdempotencyRecordStore`).
 *
 * Shape: `{ state, attempts, effectClass?, result?, createdAtMs, startedAtMs?, completedAtMs? }`.
 */
export interface IdempotencyRecord {
  readonly state: IdempotencyRecordState;
  /** Attempts begun (0 when `complete` came without `begin`). */
  readonly attempts: number;
  /** The effect class of the first `begin`. */
  readonly effectClass?: ToolEffectClass;
  /** The recorded result (final states only). */
  readonly result?: unknown;
  readonly createdAtMs: number;
  /** When the latest attempt began. */
  readonly startedAtMs?: number;
  readonly completedAtMs?: number;
}

/**
 * Idempotency records of tool calls, one per call, keyed by its idempotency
 * key `<sessionId>/<runId>/<toolCallId>`. They make a tool call run at most once (`non_idempotent_write`,
 * `unclassified`) or at most `MAX_TOOL_ATTEMPTS` (3) times (`read`,
 * `idempotent_write`), whatever the number of hosts and restarts, and let a
 * recorded result be reused instead of running again.
 *
 * Contract (checked by `idempotencyRecordStoreContractCases` against every implementation):
 * - `begin` and `complete` are atomic per key; of concurrent `begin`s on a new
 *   key exactly one gets `run` with attempt 1.
 * - `begin` on a key without a record records `started`, attempt 1, → `run`.
 * - `begin` on a final record → `reuse` with its status and result, for every class.
 * - `begin` on `started`: a retryable class with attempts below the maximum
 *   counts one more attempt → `run`; otherwise → `outcome_unknown`. A failed
 *   attempt that will be retried is not completed: it stays `started`.
 * - `complete` records the final status and result unless one is recorded
 *   already (the first wins) and returns the recorded one.
 * - Results round-trip as JSON (plain data).
 */
export interface IdempotencyRecordStore {
  /** Attempts in all for `read` / `idempotent_write` calls (default 3); the handler retries below it. */
  readonly maxAttempts: number;
  /**
   * Decides whether a call may run, counting the attempt when it may.
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
