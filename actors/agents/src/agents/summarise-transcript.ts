import type { BudgetWarning, Usage } from "@troupe/protocol";
import type { SpendHold, LanguageModelInstance } from "@troupe/models/internal";
import type { ModelPrompt } from "./build-model-prompt.js";
import type { IndexedEntry } from "./compaction-plan.js";
import { cutText } from "@troupe/protocol";
import { settleFailedModelCallSpend } from "./model-call-spend.js";
import { ModelTimeoutError } from "./model-timeout-error.js";
import { streamModelCall, type StreamedModelCall } from "./stream-model-call.js";
import { estimateTextTokens } from "./text-tokens.js";
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
   * Most estimated tokens ({@link estimateTextTokens}) one summarising request
   * may send: the compaction model's prompt bound (`compactionPromptBound`).
   * Entries that do not fit in one request are summarised in consecutive parts,
   * each continuing the previous part's summary; an entry too long for a
   * request on its own is cut to fit. Undefined = one request, unbounded.
   */
  readonly maxPromptTokens?: number | undefined;
  /**
   * Reserves a summarising request's spend before it is made
   * (docs/capabilities/spend-limits.md): given the request's prompt and its
   * part number (0 for the first or only one), returns the hold to settle (its
   * `maxOutputTokens` bounds the call) or undefined when no budget applies;
   * throws BudgetExceededError to refuse the call. Absent = not accounted.
   */
  readonly reserveSpend?: (prompt: ModelPrompt, part: number) => Promise<SpendHold | undefined>;
}

/** The summary a model wrote, and what the call used. */
export interface WrittenSummary {
  readonly text: string;
  readonly usage: Usage;
  /** Budgets whose warning threshold the call's settled spend crossed (empty when none). */
  readonly budgetWarnings: readonly BudgetWarning[];
}

/**
 * Asks a model to summarise transcript entries (docs/decisions/0040). The entries go as
 * one user message of plain text (`[user] …`, `[assistant] …`, `[tool name →
 * status] …`), not as tool-call parts, so any model can summarise any
 * provider's transcript. Bounded by `maxPromptTokens` (docs/capabilities/compaction.md): entries
 * that do not fit one request go in consecutive requests, each summarising
 * its entries together with the summary so far, so a compaction model with a
 * smaller window than the agent's model never gets more than its window.
 *
 * With `reserveSpend`, each request reserves its worst case first and settles
 * its usage after; a failed call is charged what streamed before it failed,
 * or releases the reservation when nothing did (docs/capabilities/spend-limits.md).
 *
 * @param options - model, entries, previous summary, signal, bounds, spend reservation.
 * @returns the last request's summary text (trimmed), the usage of all requests and the budget
 *   warnings their settlements crossed.
 * @throws ModelCallError `model_error` (retryable as the provider says), ModelTimeoutError
 *   `model_timeout` (retryable), BudgetExceededError `budget_exceeded` (from `reserveSpend`,
 *   before the model is called), or the signal's reason when it aborted.
 */
export async function summariseTranscript(
  options: SummariseTranscriptOptions,
): Promise<WrittenSummary> {
  const lines = options.entries.map(({ entry }) => renderEntry(entry));
  let summary = options.previousSummary;
  const usage = { inputTokens: 0, outputTokens: 0 };
  const budgetWarnings: BudgetWarning[] = [];
  let part = 0;
  for (let next = 0; next < lines.length || part === 0; part += 1) {
    const request = nextSummaryRequest(summary, lines, next, options.maxPromptTokens);
    next = request.next;
    const written = await summariseOnce(options, request.prompt, part);
    summary = written.text;
    usage.inputTokens += written.usage.inputTokens;
    usage.outputTokens += written.usage.outputTokens;
    budgetWarnings.push(...written.budgetWarnings);
  }
  return { text: summary ?? "", usage, budgetWarnings };
}

/** Tokens counted for the framing of a summarising request (roles, the heading line). */
const REQUEST_OVERHEAD_TOKENS = 16;

/**
 * The next summarising request: the previous summary, then as many lines from
 * `from` on as fit in `maxPromptTokens` (at least one, cut to fit when it is
 * too long on its own), all of them when unbounded. A previous summary longer
 * than half the bound is cut to half.
 *
 * @returns the prompt and the index of the first line it left for the next request.
 */
export function nextSummaryRequest(
  previousSummary: string | undefined,
  lines: readonly string[],
  from: number,
  maxPromptTokens: number | undefined,
): { prompt: ModelPrompt; next: number } {
  const bound = maxPromptTokens ?? Number.POSITIVE_INFINITY;
  const body: string[] = [];
  let room = bound - estimateTextTokens(COMPACTION_INSTRUCTIONS) - 2 * REQUEST_OVERHEAD_TOKENS;
  if (previousSummary !== undefined) {
    const line = fitTokens(
      `[summary of the earlier conversation] ${previousSummary}`,
      Math.floor(room / 2),
    );
    body.push(line);
    room -= estimateTextTokens(line) + 1;
  }
  let next = from;
  while (next < lines.length) {
    const line = lines[next]!;
    const tokens = estimateTextTokens(line) + 1;
    if (tokens > room) {
      // A line that does not fit an empty request is cut; otherwise it waits for the next.
      if (next === from) {
        body.push(fitTokens(line, room - 1));
        next += 1;
      }
      break;
    }
    body.push(line);
    room -= tokens;
    next += 1;
  }
  return {
    prompt: {
      instructions: COMPACTION_INSTRUCTIONS,
      messages: [{ role: "user", content: `Summarise this conversation:\n\n${body.join("\n")}` }],
    },
    next,
  };
}

/**
 * The longest prefix of `text` (whole characters, `cutText`) whose estimate is
 * at most `maxTokens`, ending with a mark that it was cut. A few passes: the
 * cut starts from the text's average tokens per character.
 */
function fitTokens(text: string, maxTokens: number): string {
  const tokens = estimateTextTokens(text);
  if (tokens <= maxTokens) return text;
  const mark = " …[cut to fit the summarising request]";
  const room = Math.max(0, maxTokens - estimateTextTokens(mark));
  let length = Math.floor((text.length * room) / tokens);
  for (;;) {
    const cut = cutText(text, length);
    if (estimateTextTokens(cut) <= room || cut.length === 0) return cut + mark;
    length = Math.floor(cut.length * 0.9);
  }
}

/**
 * One summarising request, with its spend reserved and settled (docs/capabilities/spend-limits.md).
 */
async function summariseOnce(
  options: SummariseTranscriptOptions,
  prompt: ModelPrompt,
  part: number,
): Promise<WrittenSummary> {
  const hold = await options.reserveSpend?.(prompt, part);
  const maxOutputTokens = hold?.maxOutputTokens;
  let streamed: StreamedModelCall | undefined;
  try {
    streamed = await streamModelCall({
      model: options.model,
      ...prompt,
      ...(maxOutputTokens === undefined ? {} : { maxOutputTokens }),
      signal: options.signal,
      timeouts: options.timeouts,
      ...(options.providerOptions === undefined
        ? {}
        : { providerOptions: options.providerOptions }),
      onDelta: () => Promise.resolve(),
    });
    assertSummaryWritten(options, streamed);
  } catch (error) {
    await settleFailedModelCallSpend(hold, streamed).catch(() => undefined);
    throw error;
  }
  const budgetWarnings =
    hold === undefined ? [] : await hold.settle(streamed.usage, streamed.responseModel, true);
  return { text: streamed.text.trim(), usage: streamed.usage, budgetWarnings };
}

/** Throws the error of a summarising call that did not finish (aborted, timed out, failed). */
function assertSummaryWritten(
  options: SummariseTranscriptOptions,
  streamed: StreamedModelCall,
): void {
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
