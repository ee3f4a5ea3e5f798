import { z } from "zod";

/** Reserved output tokens of a model call when `limits.budget.maxOutputTokens` is not set. */
export const DEFAULT_BUDGET_MAX_OUTPUT_TOKENS = 4096;
/** Fraction of a budget at which `budget.warning` is published when `warnAt` is not set. */
export const DEFAULT_BUDGET_WARN_AT = 0.8;

/**
 * One budget's limits: `tokens` (input + output tokens, whole, ≥ 1) and/or
 * `costUsd` (US dollars, > 0, priced by the pricing table); either absent =
 * not limited in that unit.
 */
export const budgetAmountSchema = z.strictObject({
  tokens: z.number().int().min(1).optional(),
  costUsd: z.number().gt(0).optional(),
});
/** See {@link budgetAmountSchema}. */
export type BudgetAmount = z.infer<typeof budgetAmountSchema>;

/**
 * The price of a model in US dollars per million tokens, input and output
 * (both ≥ 0).
 */
export const modelPriceSchema = z.strictObject({
  inputPerMTok: z.number().nonnegative(),
  outputPerMTok: z.number().nonnegative(),
});
/** See {@link modelPriceSchema}. */
export type ModelPrice = z.infer<typeof modelPriceSchema>;

const isTimeZone = (timeZone: string): boolean => {
  try {
    new Intl.DateTimeFormat("en-CA", { timeZone });
    return true;
  } catch {
    return false;
  }
};

/**
 * `limits.budget` of `defineAgent` (docs/capabilities/spend-limits.md): spend
 * limits of the agent's session trees. Present (even `{}`) = every model call of
 * the agent (and of its subagents) is reserved, settled and recorded for
 * `troupe usage`; absent = no accounting at all.
 *
 * Shape: `{ run?: BudgetAmount, session?: BudgetAmount, agentDay?: BudgetAmount,
 * warnAt (fraction, 0 < warnAt ≤ 1, default 0.8), pricing (by model spec or
 * model id, default {}), maxOutputTokens (whole, ≥ 1, default 4096),
 * timeZone (IANA, default "UTC") }`:
 * - `run`: the model calls of one run of a session (a subagent's run has its own);
 * - `session`: the session tree — the session and its subagents' sessions;
 * - `agentDay`: every tree of this agent started by a user, per calendar day in `timeZone`;
 * - `pricing`: overrides of the default table (`DEFAULT_MODEL_PRICING`), keyed by
 *   model spec (`"openai:gpt-4o-mini"`) or model id (`"gpt-4o-mini"`); a model
 *   with no price is not limited by cost (tokens still are);
 * - `maxOutputTokens`: the output bound of each call, sent to the model and
 *   reserved as its worst case.
 */
export const budgetOptionsSchema = z.strictObject({
  run: budgetAmountSchema.optional(),
  session: budgetAmountSchema.optional(),
  agentDay: budgetAmountSchema.optional(),
  warnAt: z.number().gt(0).max(1).default(DEFAULT_BUDGET_WARN_AT),
  pricing: z.record(z.string().min(1), modelPriceSchema).default({}),
  maxOutputTokens: z.number().int().min(1).default(DEFAULT_BUDGET_MAX_OUTPUT_TOKENS),
  timeZone: z
    .string()
    .refine(isTimeZone, "must be an IANA time zone such as UTC or Europe/Paris")
    .default("UTC"),
});
/** `limits.budget` as `defineAgent` takes it; see {@link budgetOptionsSchema}. */
export type BudgetOptions = z.input<typeof budgetOptionsSchema>;
/** `limits.budget` validated, defaults filled in; see {@link budgetOptionsSchema}. */
export type BudgetSettings = z.output<typeof budgetOptionsSchema>;
