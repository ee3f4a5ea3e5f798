import {
  TroupeError,
  type BudgetWarning,
  type CompactionResult,
  type ModelCallInput,
  type TranscriptEntry,
} from "@troupe/protocol";
import type { PromptMedia } from "@troupe/tools/internal";
import type { LanguageModelInstance } from "@troupe/models";
import type { AgentDefinition } from "./agent-definition.js";
import { buildModelPrompt, type ModelPrompt } from "./build-model-prompt.js";
import {
  estimateEntriesInSlices,
  instructionsWithSummary,
  planCompaction,
  promptTokens,
  type IndexedEntry,
} from "./compaction-plan.js";
import { compactionPromptBound, resolveContextBudget } from "./context-budget.js";
import { summariseTranscript, type SummariseTranscriptOptions } from "./summarise-transcript.js";
import { readTranscriptEntries, type TranscriptReader } from "./transcript-reader.js";

/** What {@link compactedPrompt} needs. */
export interface CompactedPromptOptions {
  readonly agent: AgentDefinition;
  /** The model the call goes to (its id picks the default budget). */
  readonly model: LanguageModelInstance;
  /** The model that writes a summary (`agent.context.compactionModel`, else `model`). */
  readonly compactionModel: LanguageModelInstance;
  readonly input: ModelCallInput;
  readonly transcript: TranscriptReader;
  readonly signal: AbortSignal;
  /**
   * Reads the attachments and tool media of the entries that go into the
   * prompt (docs/capabilities/media.md); absent: entries are shown as text only.
   */
  readonly loadMedia?: (entries: readonly TranscriptEntry[]) => Promise<PromptMedia | undefined>;
  /**
   * Reserves the summarising call's spend (docs/capabilities/spend-limits.md);
   * see `SummariseTranscriptOptions.reserveSpend`. Absent = not accounted.
   */
  readonly reserveSummarySpend?: SummariseTranscriptOptions["reserveSpend"];
}

/** The prompt of a model call and, when it compacted, what the compaction produced. */
export interface CompactedPrompt {
  readonly prompt: ModelPrompt;
  readonly compaction: CompactionResult | undefined;
  /** Entries read for this call (a cost proxy: bounded after a compaction). */
  readonly entriesRead: number;
  /** Budgets whose warning threshold the summarising call crossed (empty without one). */
  readonly budgetWarnings: readonly BudgetWarning[];
}

/**
 * Reads a model call's transcript window and builds its prompt, compacting
 * first when it must (docs/capabilities/compaction.md): the window is the latest
 * summary (entry `input.summaryIndex`) and the entries from its `through` to
 * `input.transcriptLength − 1`; when the estimated prompt exceeds the agent's
 * budget, or `input.compact` is `manual`, the older part is summarised by
 * `compactionModel` (see `planCompaction`) and the prompt is built from the
 * new summary and the entries kept. The summary goes into the instructions,
 * after the agent's own, as the conversation so far.
 *
 * Deterministic up to the summary text: the same input reads the same entries
 * and cuts at the same index, so a re-run after a crash (at-least-once
 * effects) produces an equivalent result, and only one is journaled.
 *
 * @param options - agent, models, input, transcript reader, signal, summary spend reservation.
 * @returns the prompt, the compaction (or undefined), entries read, the summarising
 *   call's budget warnings; undefined when the signal aborted while reading.
 * @throws TroupeError `effect_failed` (retryable) when the transcript is short or
 *   unreadable, or when `summaryIndex` does not name a summary entry; the summarising
 *   call's ModelCallError / ModelTimeoutError / BudgetExceededError.
 */
export async function compactedPrompt(
  options: CompactedPromptOptions,
): Promise<CompactedPrompt | undefined> {
  const { agent, input, signal } = options;
  let start = 0;
  let summaryText: string | undefined;
  let entriesRead = 0;
  if (input.summaryIndex !== undefined) {
    const read = await readTranscriptEntries(
      options.transcript,
      {
        sessionId: input.sessionId,
        transcriptLength: input.summaryIndex + 1,
        transcriptBase: input.transcriptBase,
      },
      signal,
      input.summaryIndex,
    );
    if (read === undefined) return undefined;
    const summary = read[0];
    if (summary?.role !== "summary") {
      throw new TroupeError(
        "effect_failed",
        `entry ${input.summaryIndex} of the transcript of session ${input.sessionId} is not a summary`,
        { retryable: true, details: { sessionId: input.sessionId, index: input.summaryIndex } },
      );
    }
    entriesRead += 1;
    start = summary.through;
    summaryText = summary.text;
  }
  const read = await readTranscriptEntries(options.transcript, input, signal, start);
  if (read === undefined) return undefined;
  entriesRead += read.length;
  const entries: IndexedEntry[] = [];
  read.forEach((entry, offset) => {
    if (entry.role !== "summary") entries.push({ index: start + offset, entry });
  });
  const budget = resolveContextBudget(agent.context, options.model.modelId);
  await estimateEntriesInSlices(entries);
  const plan = planCompaction(
    { instructions: agent.instructions, summaryText, entries },
    budget,
    input.compact === "manual",
  );
  const media = (kept: readonly IndexedEntry[]) =>
    options.loadMedia?.(kept.map(({ entry }) => entry)) ?? Promise.resolve(undefined);
  if (plan === undefined) {
    const prompt = withSummary(agent, summaryText, entries, await media(entries));
    return { prompt, compaction: undefined, entriesRead, budgetWarnings: [] };
  }
  const written = await summariseTranscript({
    model: options.compactionModel,
    previousSummary: summaryText,
    entries: plan.summarised,
    maxPromptTokens: compactionPromptBound(agent.context, options.compactionModel.modelId),
    signal,
    timeouts: { idleMs: agent.limits.modelIdleTimeoutMs, callMs: agent.limits.modelCallTimeoutMs },
    providerOptions: {
      troupe: {
        sessionId: input.sessionId,
        runId: input.runId,
        modelCallIndex: input.modelCallIndex,
        retry: input.retry,
        compaction: true,
      },
    },
    ...(options.reserveSummarySpend === undefined
      ? {}
      : { reserveSpend: options.reserveSummarySpend }),
  });
  const compaction: CompactionResult = {
    text: written.text,
    through: plan.through,
    tokensBefore: plan.tokensBefore,
    tokensAfter: promptTokens(agent.instructions, written.text, plan.kept),
    reason: plan.reason,
    model: `${options.compactionModel.provider}:${options.compactionModel.modelId}`,
    usage: written.usage,
  };
  const prompt = withSummary(agent, written.text, plan.kept, await media(plan.kept));
  return { prompt, compaction, entriesRead, budgetWarnings: written.budgetWarnings };
}

/**
 * The prompt of `entries` with the summary of what came before them.
 *
 * @param agent - the agent answering.
 * @param summaryText - the latest summary, if any.
 * @param entries - the entries after it.
 * @param media - how their attachments and tool media are shown (`loadPromptMedia`).
 * @returns instructions (with the summary appended) and messages.
 */
export function withSummary(
  agent: AgentDefinition,
  summaryText: string | undefined,
  entries: readonly IndexedEntry[],
  media?: PromptMedia,
): ModelPrompt {
  const prompt = buildModelPrompt(
    agent,
    entries.map(({ entry }) => entry),
    media,
  );
  return { ...prompt, instructions: instructionsWithSummary(prompt.instructions, summaryText) };
}
