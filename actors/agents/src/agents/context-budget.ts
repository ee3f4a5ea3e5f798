import { z } from "zod";
import type { ModelSpec } from "@troupe/models";

/**
 * Context windows of models whose size is published, in tokens, by model id
 * prefix (the longest matching prefix wins). Sources:
 * - OpenAI: https://platform.openai.com/docs/models (gpt-4o, gpt-4o-mini 128,000;
 *   gpt-4.1 family 1,047,576; o3, o4-mini 200,000);
 * - Anthropic: https://docs.anthropic.com/en/docs/about-claude/models (Claude 3, 3.5,
 *   3.7, 4 models 200,000);
 * - Google: https://ai.google.dev/gemini-api/docs/models (gemini-1.5-pro 2,097,152;
 *   gemini-1.5-flash, 2.0 and 2.5 models 1,048,576).
 */
export const KNOWN_CONTEXT_WINDOW_TOKENS: Readonly<Record<string, number>> = Object.freeze({
  "gpt-4o": 128_000,
  "gpt-4.1": 1_047_576,
  o3: 200_000,
  "o4-mini": 200_000,
  "claude-": 200_000,
  "gemini-1.5-pro": 2_097_152,
  "gemini-1.5-flash": 1_048_576,
  "gemini-2.0": 1_048_576,
  "gemini-2.5": 1_048_576,
});

/** Share of a known context window a prompt may use by default (the rest is left for the answer). */
export const DEFAULT_PROMPT_SHARE = 0.75;
/** Share of the budget the entries kept after a compaction may use by default. */
export const DEFAULT_KEEP_RECENT_SHARE = 0.25;

/**
 * How an agent's context is kept within budget (docs/capabilities/compaction.md),
 * as `defineAgent` takes it (`AgentOptions.context`).
 */
export interface ContextOptions {
  /**
   * Most prompt tokens (estimated, see {@link estimateTextTokens}) a model call may
   * send before the older transcript is compacted (whole, ≥ 1). Default: 75 % of
   * the model's context window when {@link KNOWN_CONTEXT_WINDOW_TOKENS} knows it;
   * otherwise no automatic compaction (a manual `session.compact` still works).
   */
  readonly maxPromptTokens?: number;
  /**
   * Most tokens of the recent entries a compaction keeps verbatim (whole, ≥ 1);
   * default 25 % of `maxPromptTokens`.
   */
  readonly keepRecentTokens?: number;
  /** Model that writes summaries (e.g. a cheaper one); default the model of the call. */
  readonly compactionModel?: ModelSpec;
  /**
   * Most estimated tokens one summarising request may send (whole, ≥ 1);
   * longer histories are summarised in consecutive requests (docs/capabilities/compaction.md).
   * Default: 75 % of the compaction model's context window when
   * {@link KNOWN_CONTEXT_WINDOW_TOKENS} knows it; otherwise unbounded (give
   * it for a model whose window the table does not know).
   */
  readonly compactionMaxPromptTokens?: number;
}

/** The plain numbers of {@link ContextOptions}; `compactionModel` is checked with the agent's model. */
export const contextOptionsSchema = z
  .strictObject({
    maxPromptTokens: z.number().int().min(1).optional(),
    keepRecentTokens: z.number().int().min(1).optional(),
    compactionModel: z.unknown().optional(),
    compactionMaxPromptTokens: z.number().int().min(1).optional(),
  })
  .optional();

/** The budget a model call is held to, in estimated tokens. */
export interface ContextBudget {
  /** Compact when the prompt would exceed this; undefined = never automatically. */
  readonly maxPromptTokens: number | undefined;
  /** Tokens of recent entries a compaction keeps. */
  readonly keepRecentTokens: number;
}

/**
 * The context window of a model id, when published.
 *
 * @param modelId - e.g. `gpt-4o-mini`, `claude-sonnet-4-5` (no provider prefix).
 * @returns tokens, or undefined for a model the table does not know.
 */
export function knownContextWindowTokens(modelId: string): number | undefined {
  let best: string | undefined;
  for (const prefix of Object.keys(KNOWN_CONTEXT_WINDOW_TOKENS)) {
    if (modelId.startsWith(prefix) && (best === undefined || prefix.length > best.length)) {
      best = prefix;
    }
  }
  return best === undefined ? undefined : KNOWN_CONTEXT_WINDOW_TOKENS[best];
}

/**
 * The budget of an agent's model call: the agent's `context` options, else the
 * defaults from the model's known context window.
 *
 * @param options - the agent's `context` options (may be undefined).
 * @param modelId - the id of the model called.
 * @returns the budget in tokens.
 */
export function resolveContextBudget(
  options: ContextOptions | undefined,
  modelId: string,
): ContextBudget {
  const window = knownContextWindowTokens(modelId);
  const maxPromptTokens =
    options?.maxPromptTokens ??
    (window === undefined ? undefined : Math.floor(window * DEFAULT_PROMPT_SHARE));
  const keepRecentTokens =
    options?.keepRecentTokens ??
    Math.max(1, Math.floor((maxPromptTokens ?? 8_000) * DEFAULT_KEEP_RECENT_SHARE));
  return { maxPromptTokens, keepRecentTokens };
}

/**
 * The most estimated tokens one summarising request may send (docs/capabilities/compaction.md):
 * `compactionMaxPromptTokens`, else 75 % of the compaction model's known
 * context window. Not the agent's `maxPromptTokens`: that is when to compact,
 * not what a model can read.
 *
 * @param options - the agent's `context` options (may be undefined).
 * @param compactionModelId - the id of the model that writes the summary.
 * @returns tokens, or undefined when nothing bounds the request.
 */
export function compactionPromptBound(
  options: ContextOptions | undefined,
  compactionModelId: string,
): number | undefined {
  if (options?.compactionMaxPromptTokens !== undefined) return options.compactionMaxPromptTokens;
  const window = knownContextWindowTokens(compactionModelId);
  return window === undefined ? undefined : Math.floor(window * DEFAULT_PROMPT_SHARE);
}
