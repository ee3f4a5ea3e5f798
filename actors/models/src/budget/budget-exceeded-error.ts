import { type BudgetScope, type BudgetUnit, TroupeError } from "@troupe/protocol";

/** What a {@link BudgetExceededError} knows about the budget that refused the call. */
export interface BudgetExceededDetails {
  readonly scope: BudgetScope;
  /** `<sessionId>/<runId>`, the root session id, or `<agent>/<YYYY-MM-DD>`. */
  readonly scopeId: string;
  readonly unit: BudgetUnit;
  /** Settled spend, in `unit` (usd: dollars). */
  readonly spent: number;
  /** Held by other model calls' reservations, in `unit`. */
  readonly reserved: number;
  readonly limit: number;
  /** This call's worst case (estimated input + `maxOutputTokens`, priced), in `unit`. */
  readonly needed: number;
}

const scopeNames: Record<BudgetScope, string> = {
  run: "run",
  session: "session tree",
  agent_day: "agent's daily",
};

/**
 * A model call's worst case does not fit in one of its spend budgets
 * (docs/decisions/0041): settled + reserved + needed > limit. Code `budget_exceeded`, not
 * retryable: the `model.call` effect fails before the model is called, and the
 * run ends with `run.failed { code: "budget_exceeded" }`. `details` holds
 * {@link BudgetExceededDetails}.
 *
 * @see docs/capabilities/spend-limits.md
 */
export class BudgetExceededError extends TroupeError {
  /** @param details - the budget that refused the call and its amounts. */
  constructor(details: BudgetExceededDetails) {
    const amount = (value: number) =>
      details.unit === "usd" ? `$${value.toFixed(6)}` : `${value} tokens`;
    super(
      "budget_exceeded",
      `the ${scopeNames[details.scope]} budget ${details.scopeId} is spent: ` +
        `${amount(details.spent)} spent and ${amount(details.reserved)} reserved of ` +
        `${amount(details.limit)}; the next model call may need up to ${amount(details.needed)}`,
      { retryable: false, details: { ...details } },
    );
    this.name = "BudgetExceededError";
  }
}
