import { appendEntry, emitEvent, type TranscriptEntry } from "@troupe/protocol";
import { readModelCallOutput } from "./model-call-output.js";
import type { RunStep } from "./run-steps.js";

// Context compaction in the run machine (docs/capabilities/compaction.md,
// docs/decisions/0040). The model-call handler does the compaction inside the
// `model.call` effect, so its journaled result carries the summary: these steps
// only append it and say so, deterministically, from that result.

/**
 * A model call's result that compacted the transcript: appends the summary as
 * a `summary` entry at the run's next index (before the entries of the call's
 * answer, which the next step appends), emits `session.compacted`, and
 * remembers the summary's index for later model calls (`summaryIndex`). Clears
 * a pending `session.compact` request either way: the call that carried it is
 * answered. Runs first on every `effect.completed` of the current model call
 * that holds a model call output; does nothing for one without compaction.
 */
export const recordCompaction: RunStep = (context, event) => {
  const { run } = context;
  const output = event.type === "effect.completed" ? readModelCallOutput(event.output) : undefined;
  const cleared = context.compactRequested === true ? { compactRequested: false } : {};
  if (run === undefined || output?.compaction === undefined) return { context: cleared };
  const { compaction } = output;
  const summaryIndex = run.transcriptLength;
  const entry: TranscriptEntry = {
    role: "summary",
    text: compaction.text,
    through: compaction.through,
    tokensBefore: compaction.tokensBefore,
    tokensAfter: compaction.tokensAfter,
    runId: run.runId,
    ...(compaction.model === undefined ? {} : { model: compaction.model }),
  };
  return {
    context: {
      ...cleared,
      summaryIndex,
      run: { ...run, transcriptLength: run.transcriptLength + 1 },
    },
    actions: [
      appendEntry({ log: "transcript", key: context.sessionId, index: summaryIndex, entry }),
      emitEvent("session.compacted", {
        sessionId: context.sessionId,
        runId: run.runId,
        summaryIndex,
        through: compaction.through,
        tokensBefore: compaction.tokensBefore,
        tokensAfter: compaction.tokensAfter,
        reason: compaction.reason,
        ...(compaction.model === undefined ? {} : { model: compaction.model }),
        usage: compaction.usage,
      }),
    ],
  };
};

/**
 * `run.compact` (a `session.compact` the session forwarded): the next model
 * call of this session — in the active run, or the next run when none is
 * active — compacts first, whatever the budget.
 */
export const requestCompaction: RunStep = () => ({ context: { compactRequested: true } });
