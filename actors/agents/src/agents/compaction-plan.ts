import type { CompactionReason } from "@troupe/protocol";
import type { ContextBudget } from "./context-budget.js";
import { eventLoopSlicer } from "@troupe/runtime/internal";
import { estimateTextTokens } from "./text-tokens.js";
import type { TranscriptEntry } from "./transcript-entry.js";

/** Tokens counted per entry on top of its text (role and message framing). */
export const ENTRY_OVERHEAD_TOKENS = 4;

/** A transcript entry with its index in the session's log. */
export interface IndexedEntry {
  readonly index: number;
  readonly entry: TranscriptEntry;
}

/** What a model call's prompt is made of, before any compaction it may do. */
export interface PromptWindow {
  /** The agent's instructions. */
  readonly instructions: string;
  /** The latest summary's text, when the session was compacted before. */
  readonly summaryText: string | undefined;
  /** The entries the prompt holds after the summary, in order, summaries left out. */
  readonly entries: readonly IndexedEntry[];
}

/** A compaction to do: summarise `summarised` (and the previous summary), keep the rest. */
export interface CompactionPlan {
  /** Entries `0 … through − 1` are summarised (absolute index). */
  readonly through: number;
  readonly summarised: readonly IndexedEntry[];
  readonly kept: readonly IndexedEntry[];
  /** Estimated prompt tokens before the compaction. */
  readonly tokensBefore: number;
  readonly reason: CompactionReason;
}

/**
 * Estimates already made, by entry object. Transcript entries never change
 * once stored and the transcript reader hands out the objects it cached, so a
 * session's later model calls estimate only the entries new since the last
 * one (re-estimating a 2,000-entry window took about 20 ms of the
 * event loop per call).
 */
const estimated = new WeakMap<TranscriptEntry, number>();

/**
 * Estimated tokens of one entry: its texts (answer, tool calls' names and
 * arguments, tool result) by `estimateTextTokens`, plus
 * {@link ENTRY_OVERHEAD_TOKENS}. Remembered per entry object.
 *
 * @param entry - any transcript entry (not changed after it is first estimated).
 * @returns tokens.
 */
export function entryTokens(entry: TranscriptEntry): number {
  let tokens = estimated.get(entry);
  if (tokens === undefined) {
    tokens = estimateEntryTokens(entry);
    estimated.set(entry, tokens);
  }
  return tokens;
}

/**
 * Estimates the entries not estimated yet, giving the event loop a turn every
 * few milliseconds (`eventLoopSlicer`), so the first model call over a long
 * window (a session new to this host) does not hold the loop for the whole
 * window. {@link entryTokens} then answers from memory.
 *
 * @param entries - the window's entries.
 */
export async function estimateEntriesInSlices(entries: readonly IndexedEntry[]): Promise<void> {
  const slice = eventLoopSlicer();
  for (const { entry } of entries) {
    if (estimated.has(entry)) continue;
    entryTokens(entry);
    await slice();
  }
}

function estimateEntryTokens(entry: TranscriptEntry): number {
  switch (entry.role) {
    case "user":
    case "summary":
      return estimateTextTokens(entry.text) + ENTRY_OVERHEAD_TOKENS;
    case "assistant":
      return (
        estimateTextTokens(
          entry.text + (entry.toolCalls ?? []).map((call) => call.toolName + call.input).join(""),
        ) + ENTRY_OVERHEAD_TOKENS
      );
    case "tool":
      return estimateTextTokens(entry.toolName + entry.content) + ENTRY_OVERHEAD_TOKENS;
  }
}

/**
 * The instructions of a model call whose prompt carries a summary: the agent's
 * instructions, then the summary as the conversation so far.
 *
 * @param instructions - the agent's instructions.
 * @param summaryText - the latest summary, if any.
 * @returns the instructions to send.
 */
export function instructionsWithSummary(
  instructions: string,
  summaryText: string | undefined,
): string {
  if (summaryText === undefined) return instructions;
  return (
    `${instructions}\n\n<conversation_summary>\n` +
    "The earlier part of this conversation was compacted into this summary:\n" +
    `${summaryText}\n</conversation_summary>`
  );
}

/**
 * Estimated tokens of a prompt: instructions (with the summary, as sent; see
 * {@link instructionsWithSummary}) and entries. Tool definitions are not
 * counted: keep a margin for them in the budget.
 *
 * @param instructions - the agent's instructions.
 * @param summaryText - the summary the prompt carries, if any.
 * @param entries - the entries after it.
 * @returns tokens.
 */
export function promptTokens(
  instructions: string,
  summaryText: string | undefined,
  entries: readonly IndexedEntry[],
): number {
  let total = estimateTextTokens(instructionsWithSummary(instructions, summaryText));
  for (const { entry } of entries) total += entryTokens(entry);
  return total;
}

/**
 * Decides whether a model call compacts first, and where to cut (docs/decisions/0040):
 * with `reason` `manual` always (when there is something to summarise); else
 * when the estimated prompt exceeds `budget.maxPromptTokens`.
 *
 * The cut `through` is the smallest index of the window such that the entries
 * from it on fit in `budget.keepRecentTokens` (for `manual`: the latest user
 * entry, so the current turn is kept whole), moved so that no assistant
 * entry's tool calls are separated from their `tool` results — the cut is only
 * at a point where every call before it has its result before it. At least one
 * entry is summarised and at least one kept; when no cut fits, nothing is done.
 *
 * @param window - the prompt as it would be sent.
 * @param budget - the agent's budget.
 * @param manual - a `session.compact` asked for it.
 * @returns the plan, or undefined when the call does not compact.
 */
export function planCompaction(
  window: PromptWindow,
  budget: ContextBudget,
  manual: boolean,
): CompactionPlan | undefined {
  const { entries } = window;
  const tokensBefore = promptTokens(window.instructions, window.summaryText, entries);
  const overBudget = budget.maxPromptTokens !== undefined && tokensBefore > budget.maxPromptTokens;
  if (!manual && !overBudget) return undefined;
  const safe = safeCuts(entries);
  let cut: number | undefined;
  if (manual && !overBudget) {
    for (let position = entries.length - 1; position > 0 && cut === undefined; position -= 1) {
      if (safe[position] === true && entries[position]?.entry.role === "user") cut = position;
    }
  } else {
    let tail = 0;
    for (let position = entries.length - 1; position > 0; position -= 1) {
      tail += entryTokens(entries[position]!.entry);
      if (tail > budget.keepRecentTokens && cut !== undefined) break;
      if (safe[position] === true) cut = position;
    }
  }
  if (cut === undefined) {
    // Nothing fits: keep as little as a safe cut allows.
    for (let position = entries.length - 1; position > 0 && cut === undefined; position -= 1) {
      if (safe[position] === true) cut = position;
    }
  }
  if (cut === undefined) return undefined;
  return {
    through: entries[cut]!.index,
    summarised: entries.slice(0, cut),
    kept: entries.slice(cut),
    tokensBefore,
    reason: manual ? "manual" : "budget",
  };
}

/**
 * `safe[i]`: every tool call of the entries before position `i` has its result
 * before `i` too, so cutting at `i` splits no call from its result.
 */
function safeCuts(entries: readonly IndexedEntry[]): boolean[] {
  const pending = new Set<string>();
  const safe: boolean[] = [];
  for (const { entry } of entries) {
    safe.push(pending.size === 0);
    if (entry.role === "assistant") {
      // A newer assistant entry settles calls left without a result (the prompt
      // builder gives them an error result there).
      pending.clear();
      for (const call of entry.toolCalls ?? []) pending.add(call.toolCallId);
    } else if (entry.role === "tool") {
      pending.delete(entry.toolCallId);
    }
  }
  return safe;
}
