import type { ModelPrice } from "./budget-options.js";

/**
 * List prices of a few common models, US dollars per million tokens (input,
 * output), as the providers published them in 2025 (OpenAI
 * https://openai.com/api/pricing/, Anthropic https://www.anthropic.com/pricing,
 * Google https://ai.google.dev/gemini-api/docs/pricing). Not re-checked when
 * this table was written (2026-12-01, no network): prices change, so give
 * yours in `limits.budget.pricing`, which overrides this table. Keyed by model id.
 */
export const DEFAULT_MODEL_PRICING: Readonly<Record<string, ModelPrice>> = Object.freeze({
  "gpt-4o": { inputPerMTok: 2.5, outputPerMTok: 10 },
  "gpt-4o-mini": { inputPerMTok: 0.15, outputPerMTok: 0.6 },
  "gpt-4.1": { inputPerMTok: 2, outputPerMTok: 8 },
  "gpt-4.1-mini": { inputPerMTok: 0.4, outputPerMTok: 1.6 },
  "claude-sonnet-4-0": { inputPerMTok: 3, outputPerMTok: 15 },
  "claude-3-5-haiku-latest": { inputPerMTok: 0.8, outputPerMTok: 4 },
  "claude-opus-4-0": { inputPerMTok: 15, outputPerMTok: 75 },
  "gemini-2.5-flash": { inputPerMTok: 0.3, outputPerMTok: 2.5 },
  "gemini-2.5-pro": { inputPerMTok: 1.25, outputPerMTok: 10 },
});

/** How a model call names its model, for a price lookup. */
export interface PricedModel {
  /** The model spec string the call resolved, e.g. `"openai:gpt-4o-mini"`; undefined for a model object. */
  readonly spec: string | undefined;
  /** The model's id (`LanguageModel.modelId`), e.g. `"gpt-4o-mini"`. */
  readonly modelId: string;
}

/**
 * The price of a model: `overrides` by spec, then by model id, then the default
 * table by model id.
 *
 * @param model - the call's model spec and id.
 * @param overrides - `limits.budget.pricing`.
 * @returns the price, or undefined for a model without one (its cost is not limited).
 */
export function priceOf(
  model: PricedModel,
  overrides: Readonly<Record<string, ModelPrice>>,
): ModelPrice | undefined {
  return (
    (model.spec === undefined ? undefined : overrides[model.spec]) ??
    overrides[model.modelId] ??
    DEFAULT_MODEL_PRICING[model.modelId]
  );
}

/**
 * Cost of a number of tokens in micro-dollars (1 USD = 1 000 000), rounded up
 * to a whole micro-dollar: tokens × USD per million tokens is micro-dollars.
 *
 * @param price - the model's price.
 * @param inputTokens - input tokens (whole, ≥ 0).
 * @param outputTokens - output tokens (whole, ≥ 0).
 * @returns whole micro-dollars, ≥ 0.
 */
export function costMicroUsd(price: ModelPrice, inputTokens: number, outputTokens: number): number {
  const exact = inputTokens * price.inputPerMTok + outputTokens * price.outputPerMTok;
  // Rounded to a millionth first, so 1 000 × 0.15 (150.00000000000003 in floating point) is 150.
  return Math.ceil(Math.round(exact * 1e6) / 1e6);
}
