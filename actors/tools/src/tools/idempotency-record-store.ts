import type { ToolEffectClass } from "./define-tool.js";

/** Time an idempotency record (and a stored full result) is kept after its last change, in ms, by default: 7 days. */
export const DEFAULT_IDEMPOTENCY_RECORD_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** The final status an idempotency record holds: the call produced a result, or failed for good. */
export type IdempotencyRecordStatus = "succeeded" | "failed";

/** State of an idempotency record: `started` (an execution attempt began, no result yet) or a final {@link IdempotencyRecordStatus}. */
export type IdempotencyRecordState = "started" | IdempotencyRecordStatus;

/**
 * How long an execution attempt's liveness mark lasts by default, in ms: 5 s. The
 * executing host renews it every {@link DEFAULT_LIVENESS_RENEW_MS} while the tool
 * runs and until its result is recorded (docs/decisions/0010).
 */
export const DEFAULT_LIVENESS_MS = 5_000;

/** How often the executing host renews the liveness mark by default, in ms: 500 ms. */
export const DEFAULT_LIVENESS_RENEW_MS = 500;

/**
 * Options of {@link IdempotencyRecordStore.begin}. Shape: `{ livenessMs?, retryingAttempt? }`.
 */
export interface BeginOptions {
  /**
   * When the decision is `run`, mark the execution attempt live for this long
   * (ms, store clock); the executor renews the mark with `keepAlive`. Without it
   * no mark is set (the attempt counts as dead at once).
   */
  readonly livenessMs?: number;
  /**
   * The caller executed this attempt itself and retries it (a `read` /
   * `idempotent_write` whose attempt failed): its own live mark does not make
   * it wait.
   */
  readonly retryingAttempt?: number;
  /**
   * Identifies the handler invocation that begins the call (a random id it
   * keeps across its retries), so that a store which also writes an execution
   * claim (`withExecutionClaims`) recognises its own claim after a
   * lost answer. Ignored by stores without claims.
   */
  readonly claimId?: string;
}

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
 *   used up — and no execution attempt is live. `executionAttempts` counts the
 *   execution attempts begun.
 * - `running` — an execution attempt is live on some host (its liveness mark has
 *   not expired): wait (about `liveForMs` at most) and ask again; it records its
 *   result, or its mark expires because its host died (docs/decisions/0010).
 *
 * Shape: `{ kind: "run", executionAttempt } | { kind: "reuse", status, result } | { kind: "outcome_unknown", executionAttempts } | { kind: "running", executionAttempts, liveForMs }`.
 */
export type IdempotencyRecordDecision =
  | { readonly kind: "run"; readonly executionAttempt: number }
  | { readonly kind: "reuse"; readonly status: IdempotencyRecordStatus; readonly result: unknown }
  | { readonly kind: "outcome_unknown"; readonly executionAttempts: number }
  | { readonly kind: "running"; readonly executionAttempts: number; readonly liveForMs: number };

/**
 * An idempotency record as stored, for inspection. Times are Unix ms of the store's clock
 * (the Redis server's for `RedisIdempotencyRecordStore`).
 *
 * Shape: `{ state, executionAttempts, effectClass?, result?, createdAtMs, startedAtMs?, completedAtMs?, liveUntilMs? }`.
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
  /** Until when the latest execution attempt is marked live (`started` records begun with `livenessMs`). */
  readonly liveUntilMs?: number;
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
 * - `begin` on `started` whose liveness mark has not expired (and is not the
 *   caller's own `retryingAttempt`) → `running`, for every class: nothing is
 *   counted, the caller waits for the live execution's result.
 * - `begin` on `started` without a live mark: a retryable class with execution
 *   attempts below the maximum counts one more → `run`; otherwise →
 *   `outcome_unknown`. A failed execution attempt that will be retried is not
 *   completed: it stays `started`.
 * - `keepAlive` renews the mark of the latest attempt of a `started` record
 *   only; `complete` ends it.
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
   * @param options - liveness mark of the attempt, see {@link BeginOptions}.
   * @returns see {@link IdempotencyRecordDecision}.
   */
  begin(
    key: string,
    effectClass: ToolEffectClass,
    options?: BeginOptions,
  ): Promise<IdempotencyRecordDecision>;
  /**
   * Renews the liveness mark of a running execution attempt (docs/decisions/0010).
   *
   * @param key - the idempotency key.
   * @param executionAttempt - the attempt the caller runs.
   * @param livenessMs - the mark lasts this long from now (store clock); 0 ends it
   *   (an attempt given up).
   * @returns false when the record is final or another attempt began (nothing changed).
   */
  keepAlive(key: string, executionAttempt: number, livenessMs: number): Promise<boolean>;
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
