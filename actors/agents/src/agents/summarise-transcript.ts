import type { BudgetWarning, Usage } from "@troupe/protocol";
import type { SpendHold } from "../budget/spend-guard.js";
import type { LanguageModelInstance } from "../models/resolve-model.js";
import type { ModelPrompt } from "./build-model-prompt.js";
import type { IndexedEntry } from "./compaction-plan.js";
import { ModelTimeoutError } from "./model-timeout-error.js";
import { streamModelCall } from "./stream-model-call.js";
import { toModelCallError } from "./to-model-call-error.js";

/**
 * Instructions of a summarising call. Tests recognise a summarising request by
 * its first line ({@link COMPACTION_INSTRUCTIONS_MARKER}).
 */
export const COMPACTION_INSTRUCTIONS = [
  "You compact the transcript of a conversation between a user and an AI agent.",
  "Write a summary the agent can continue from: the user's goals and preferences,",
  "facts and decisions established, tool calls made and what they returned, open",
  "questions and next steps. Keep names, numbers, ids and file paths exactly.",
  "Write plain text, no preamble, at most about 400 words.",
].join("\n");

/** The first line of {@link COMPACTION_INSTRUCTIONS}. */
export const COMPACTION_INSTRUCTIONS_MARKER = COMPACTION_INSTRUCTIONS.split("\n")[0]!;

/** What {@link summariseTranscript} needs. */
export interface SummariseTranscriptOptions {
  readonly model: LanguageModelInstance;
  /** The summary the session had, which the new one replaces. */
  readonly previousSummary: string | undefined;
  /** The entries to summarise, in order. */
  readonly entries: readonly IndexedEntry[];
  readonly signal: AbortSignal;
  /** Bounds of the call, in ms (the agent's model call bounds). */
  readonly timeouts: { readonly idleMs: number; readonly callMs: number };
  /** Passed to the provider (the scripted model reads `troupe.retry`). */
  readonly providerOptions?: Record<string, Record<string, string | number | boolean>>;
  /**
   * Reserves the summarising call's spend before it is made (issue #19,
   * docs/spend-limits.md): given the call's prompt, returns the hold to settle
   * (its `maxOutputTokens` bounds the call) or undefined when no budget
   * applies; throws BudgetExceededError to refuse the call. Absent = not accounted.
   */
  readonly reserveSpend?: (prompt: ModelPrompt) => Promise<SpendHold | undefined>;
}

/** The summary a model wrote, and what the call used. */
export interface WrittenSummary {
  readonly text: string;
  readonly usage: Usage;
  /** Budgets whose warning threshold the call's settled spend crossed (empty when none). */
  readonly budgetWarnings: readonly BudgetWarning[];
}

/**
 * Asks a model to summarise transcript entries (issue #19). The entries go as
 * one user message of plain text (`[user] …`, `[assistant] …`, `[tool name →
 * status] …`), not as tool-call parts, so any model can summarise any
 * provider's transcript.
 *
 * With `reserveSpend`, the call reserves its worst case first and settles
 * its usage after (a failed call releases the reservation).
 *
 * @param options - model, entries, previous summary, signal, bounds, spend reservation.
 * @returns the summary text (trimmed), the call's usage and the budget warnings its settlement crossed.
 * @throws ModelCallError `model_error` (retryable as the provider says), ModelTimeoutError
 *   `model_timeout` (retryable), BudgetExceededError `budget_exceeded` (from `reserveSpend`,
 *   before the model is called), or the signal's reason when it aborted.
 */
export async function summariseTranscript(
  options: SummariseTranscriptOptions,
): Promise<WrittenSummary> {
  const lines: string[] = [];
  if (options.previousSummary !== undefined) {
    lines.push(`[summary of the earlier conversation] ${options.previousSummary}`);
  }
  for (const { entry } of options.entries) lines.push(renderEntry(entry));
  const prompt: ModelPrompt = {
    instructions: COMPACTION_INSTRUCTIONS,
    messages: [{ role: "user", content: `Summarise this conversation:\n\n${lines.join("\n")}` }],
  };
  const hold = await options.reserveSpend?.(prompt);
  let written: Omit<WrittenSummary, "budgetWarnings">;
  try {
    written = await streamSummary(options, prompt, hold?.maxOutputTokens);
  } catch (error) {
    await hold?.release().catch(() => undefined);
    throw error;
  }
  const budgetWarnings = hold === undefined ? [] : await hold.settle(written.usage);
  return { ...written, budgetWarnings };
}

async function streamSummary(
  options: SummariseTranscriptOptions,
  prompt: ModelPrompt,
  maxOutputTokens: number | undefined,
): Promise<Omit<WrittenSummary, "budgetWarnings">> {
  const streamed = await streamModelCall({
    model: options.model,
    ...prompt,
    ...(maxOutputTokens === undefined ? {} : { maxOutputTokens }),
    signal: options.signal,
    timeouts: options.timeouts,
    ...(options.providerOptions === undefined ? {} : { providerOptions: options.providerOptions }),
    onDelta: () => Promise.resolve(),
  });
  if (options.signal.aborted) throw options.signal.reason;
  if (streamed.timedOut !== undefined) {
    throw new ModelTimeoutError({
      timeout: streamed.timedOut,
      timeoutMs: streamed.timedOut === "idle" ? options.timeouts.idleMs : options.timeouts.callMs,
      provider: options.model.provider,
      modelId: options.model.modelId,
    });
  }
  if (streamed.hasError) throw toModelCallError(streamed.error, options.model);
  return { text: streamed.text.trim(), usage: streamed.usage };
}

function renderEntry(entry: IndexedEntry["entry"]): string {
  switch (entry.role) {
    case "user":
      return `[user] ${entry.text}`;
    case "assistant": {
      const calls = (entry.toolCalls ?? []).map(
        (call) => ` [calls ${call.toolName}(${call.input}) as ${call.toolCallId}]`,
      );
      return `[assistant] ${entry.text}${calls.join("")}`;
    }
    case "tool":
      return `[tool ${entry.toolName} ${entry.toolCallId} → ${entry.status}] ${entry.content}`;
    case "summary":
      return `[summary of the earlier conversation] ${entry.text}`;
  }
}
