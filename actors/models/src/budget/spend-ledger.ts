import type { BudgetScope, BudgetWarning } from "@troupe/protocol";

/**
 * One budget a model call counts against, with its limits: `tokens` (input +
 * output) and `microUsd` (1 USD = 1 000 000); undefined = not limited in that
 * unit (the spend is still recorded).
 */
export interface SpendBudget {
  readonly scope: BudgetScope;
  /** `<sessionId>/<runId>` (run), the root session id (session), `<agent>/<YYYY-MM-DD>` (agent_day). */
  readonly scopeId: string;
  readonly tokens: number | undefined;
  readonly microUsd: number | undefined;
  /** How long the budget's record is kept after its last change, in ms. */
  readonly ttlMs: number;
}

/** A model call's reservation: its worst case held against every budget it counts against. */
export interface SpendReservationRequest {
  /** The run actor's id (the session making the call). */
  readonly sessionId: string;
  /**
   * The model call's effect id (`<runId>.m<n>.a<retry>`, + `.compact` for its
   * summarising call): the reservation's key.
   */
  readonly effectId: string;
  readonly budgets: readonly SpendBudget[];
  /** Worst-case tokens: estimated input + `maxOutputTokens`. */
  readonly tokens: number;
  /** Worst-case cost in micro-dollars (0 when the model has no price). */
  readonly microUsd: number;
  /**
   * How long the reservation is held if nobody settles it, in ms, counted by
   * the ledger's own clock (the Redis server's `TIME` for `RedisSpendLedger`),
   * which also judges when it expired: one clock for one deadline, so a host
   * whose clock is off can neither hold a reservation forever nor free another
   * host's early (docs/decisions/0050).
   */
  readonly holdMs: number;
}

/**
 * What a reservation came to:
 * - `reserved`: held (also when this effect's reservation was already held: a re-run after a crash);
 * - `settled`: this effect was settled before (a re-run after a crash past the settlement): the
 *   call may run again but is not counted again, `warnings` are the first settlement's;
 * - `refused`: the worst case does not fit in `budget` (the first that refuses, in order);
 *   nothing was held.
 */
export type SpendReservationResult =
  | { readonly kind: "reserved" }
  | { readonly kind: "settled"; readonly warnings: readonly BudgetWarning[] }
  | {
      readonly kind: "refused";
      readonly budget: SpendBudget;
      readonly unit: "tokens" | "usd";
      /** Settled spend, in the unit (usd: dollars). */
      readonly spent: number;
      /** Held by other calls' reservations, in the unit. */
      readonly reserved: number;
      /** The budget's limit, in the unit. */
      readonly limit: number;
      /** This call's worst case, in the unit. */
      readonly needed: number;
    };

/** The settlement of a model call: its actual usage replaces its reservation. */
export interface SpendSettlement {
  readonly sessionId: string;
  readonly effectId: string;
  readonly budgets: readonly SpendBudget[];
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Actual cost in micro-dollars (0 when the model has no price). */
  readonly microUsd: number;
  /** Warning threshold, a fraction of each limit (0 < warnAt ≤ 1). */
  readonly warnAt: number;
  /** Attribution for `troupe usage`: the agent that made the call and the tree's root session. */
  readonly agent: string;
  readonly rootSessionId: string;
  /** How long the session's usage record is kept after its last change, in ms. */
  readonly usageTtlMs: number;
}

/**
 * Where model calls reserve and settle their spend (docs/decisions/0041). Both
 * operations are atomic across hosts and keyed by the model call's effect, so a
 * re-run after a crash neither reserves nor counts twice; a reservation nobody
 * settles is released when it expires.
 */
export interface SpendLedger {
  /**
   * Holds the call's worst case against every budget, or refuses when one would
   * go over its limit (settled + reserved + this call > limit).
   *
   * @throws the store's error when it is unreachable.
   */
  reserve(request: SpendReservationRequest): Promise<SpendReservationResult>;
  /**
   * Replaces the reservation by the actual usage (once per effect; a repeat
   * returns the first settlement's warnings) and records it for `troupe usage`.
   *
   * @returns the budgets whose spend crossed `warnAt` × limit with this call.
   * @throws the store's error when it is unreachable.
   */
  settle(settlement: SpendSettlement): Promise<readonly BudgetWarning[]>;
  /**
   * Gives a reservation back unsettled (the call failed before it used the
   * model). A settled reservation is left as it is.
   */
  release(sessionId: string, effectId: string): Promise<void>;
}
