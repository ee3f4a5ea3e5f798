import { z } from "zod";
import { identifierSchema } from "../field-schemas.js";

/**
 * A budget's scope (docs/capabilities/spend-limits.md): `run` — the model calls
 * of one run; `session` — a session tree (the session and every subagent's
 * session it delegated to); `agent_day` — one agent's trees in one calendar day.
 */
export const budgetScopeSchema = z.enum(["run", "session", "agent_day"]);
/** See {@link budgetScopeSchema}. */
export type BudgetScope = z.infer<typeof budgetScopeSchema>;

/** The unit of a budget: `tokens` (input + output tokens) or `usd` (US dollars, from the pricing table). */
export const budgetUnitSchema = z.enum(["tokens", "usd"]);
/** See {@link budgetUnitSchema}. */
export type BudgetUnit = z.infer<typeof budgetUnitSchema>;

/**
 * One budget whose settled spend crossed its warning threshold (`warnAt` ×
 * `limit`) with the model call that reported it. Each budget crosses once, so
 * it is reported once, by the call whose settlement crossed it.
 *
 * Shape: `{ scope, scopeId, unit, spent, limit, warnAt }` — `scopeId` names the
 * budget: `<sessionId>/<runId>` (run), the tree's root session id (session),
 * `<agent>/<YYYY-MM-DD>` (agent_day); `spent` and `limit` in `unit` (tokens:
 * whole numbers; usd: dollars, to the micro-dollar); `warnAt` the fraction
 * (0 < warnAt ≤ 1).
 */
export const budgetWarningSchema = z.object({
  scope: budgetScopeSchema,
  scopeId: z.string().min(1),
  unit: budgetUnitSchema,
  spent: z.number().nonnegative(),
  limit: z.number().nonnegative(),
  warnAt: z.number().gt(0).max(1),
});
/** See {@link budgetWarningSchema}. */
export type BudgetWarning = z.infer<typeof budgetWarningSchema>;

/**
 * `budget.warning` — a model call of run `runId` brought a budget's spend to
 * its warning threshold (docs/decisions/0041). Published once per budget, by the run
 * actor that made the call (a subagent's on its parent session's subjects).
 * When a budget runs out the run ends with `run.failed { code:
 * "budget_exceeded" }` before its next model call.
 *
 * Shape: `{ runId: string, scope, scopeId, unit, spent, limit, warnAt }` (see
 * {@link budgetWarningSchema}).
 */
export const budgetWarningEventSchema = budgetWarningSchema.extend({ runId: identifierSchema });
/** Payload of `budget.warning`. */
export type BudgetWarningEvent = z.infer<typeof budgetWarningEventSchema>;
