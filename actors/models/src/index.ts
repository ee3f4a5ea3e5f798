/**
 * @troupe/models — the models Troupe agents call, and what the calls may cost.
 *
 * - {@link resolveModel}: a model from a provider spec (`TROUPE_MODEL`,
 *   `anthropic:…`, `openai:…`, `openai-compatible:<baseURL>#<model>`), as an AI SDK
 *   language model; {@link ScriptedModel} and {@link demoScript}, the
 *   deterministic models of demos and tests.
 * - Spend limits: {@link BudgetOptions} (`limits.budget` of `defineAgent`),
 *   {@link BudgetExceededError}, model prices ({@link DEFAULT_MODEL_PRICING})
 *   and {@link SpendReport} (what `troupe usage` reads); the spend ledger in
 *   Redis and the guard a model call passes are on `@troupe/models/internal`.
 *   See docs/capabilities/spend-limits.md and src/budget/README.md.
 *
 * `@troupe/agents` re-exports all of it.
 *
 * @packageDocumentation
 */
export * from "./models/demo-script.js";
export * from "./models/model-not-configured-error.js";
export * from "./models/model-spec.js";
export * from "./models/resolve-model.js";
export * from "./models/scripted-model.js";
export * from "./models/scripted-step.js";
export * from "./budget/budget-options.js";
export * from "./budget/budget-exceeded-error.js";
export { DEFAULT_MODEL_PRICING, type PricedModel } from "./budget/model-pricing.js";
export {
  SpendReport,
  type BudgetSpend,
  type SessionSpend,
  type SpendTotals,
  type TreeSpend,
} from "./budget/spend-report.js";
