import type { ModelCallDelta, ModelCallOutput } from "@troupe/protocol";
import { EffectCancelledError, type EffectContext } from "@troupe/runtime";
import { describe, expect, it } from "vitest";
import {
  costMicroUsd,
  RecordingSpendLedger,
  SpendGuard,
  ScriptedModel,
  type ScriptedScript,
} from "@troupe/models/internal";
import { AgentRegistry } from "./agent-registry.js";
import { defineAgent } from "./define-agent.js";
import { createModelCallHandler } from "./model-call-handler.js";
import { estimateTextTokens } from "./text-tokens.js";
import { InMemoryTranscriptReader } from "./transcript-reader.js";

// Issue #31, "accounting that holds for every ending": a model call that
// fails, times out or is cancelled after output streamed is charged what
// streamed, and the price is the answering model's.

const MAX_OUTPUT_TOKENS = 500;
const PARTIAL = "Certainly, here is the first part of a long answer that then breaks off";

function setup(script: ScriptedScript, modelId = "gpt-4o") {
  const model = new ScriptedModel(script, { modelId });
  const agents = new AgentRegistry([
    defineAgent({
      name: "assistant",
      instructions: "You are terse.",
      model,
      limits: {
        budget: {
          session: { tokens: 1_000_000 },
          maxOutputTokens: MAX_OUTPUT_TOKENS,
          pricing: { "gpt-4o-mini-2024-07-18": { inputPerMTok: 0.15, outputPerMTok: 0.6 } },
        },
      },
    }),
  ]);
  const transcript = new InMemoryTranscriptReader();
  transcript.append("s1", { role: "user", text: "Tell me everything.", messageId: "m1" });
  const ledger = new RecordingSpendLedger();
  const handler = createModelCallHandler({
    agents,
    transcript,
    env: {},
    spend: new SpendGuard(ledger),
    publishDelta: (delta) => publish.hook?.(delta),
  });
  const publish: { hook?: (delta: ModelCallDelta) => void } = {};
  /** Calls the handler as try `retry` of the run's first model call. */
  const attempt = (retry: number, controller = new AbortController()) => {
    const context: EffectContext = {
      signal: controller.signal,
      address: { kind: "run", id: "s1" },
      effectId: `r1.m1.a${retry}`,
      hostRun: () => Promise.resolve(1),
    };
    const input = {
      sessionId: "s1",
      runId: "r1",
      transcriptLength: 1,
      modelCallIndex: 1,
      retry,
      withoutTools: false,
    };
    return handler(input, context);
  };
  return { ledger, attempt, publish };
}

/** The prompt estimate a reservation assumed: its tokens less the output bound. */
const promptTokensOf = (ledger: RecordingSpendLedger, index: number) =>
  ledger.reservations[index]!.tokens - MAX_OUTPUT_TOKENS;

describe("model call spend: every ending is charged", () => {
  it("a chain of tries that each stream and then fail is charged every try's output (the provider reported no usage)", async () => {
    const tries = 3;
    const { ledger, attempt } = setup(
      Array.from({ length: tries }, () => ({
        text: PARTIAL,
        usage: { inputTokens: 0, outputTokens: 0 },
        error: { message: "connection reset", retryable: true },
      })),
    );
    for (let retry = 1; retry <= tries; retry++) {
      await expect(attempt(retry)).rejects.toMatchObject({ code: "model_error" });
    }
    expect(ledger.released).toEqual([]);
    expect(ledger.settlements.map((settlement) => settlement.effectId)).toEqual([
      "r1.m1.a1",
      "r1.m1.a2",
      "r1.m1.a3",
    ]);
    const streamedTokens = estimateTextTokens(PARTIAL);
    expect(streamedTokens).toBeGreaterThan(10);
    for (const [index, settlement] of ledger.settlements.entries()) {
      expect(settlement.outputTokens).toBe(streamedTokens);
      expect(settlement.inputTokens).toBe(promptTokensOf(ledger, index));
      expect(settlement.inputTokens).toBeGreaterThan(0);
    }
    const charged = ledger.settlements.reduce((sum, { outputTokens }) => sum + outputTokens, 0);
    expect(charged).toBe(tries * streamedTokens);
  });

  it("a try that streamed and failed is charged the provider's reported usage when that is higher", async () => {
    const { ledger, attempt } = setup([
      {
        text: PARTIAL,
        usage: { inputTokens: 900, outputTokens: 70 },
        error: { message: "connection reset", retryable: true },
      },
    ]);
    await expect(attempt(1)).rejects.toMatchObject({ code: "model_error" });
    expect(ledger.settlements).toMatchObject([{ inputTokens: 900, outputTokens: 70 }]);
  });

  it("a try that failed before any output gives its reservation back", async () => {
    const { ledger, attempt } = setup([{ error: { message: "overloaded", retryable: true } }]);
    await expect(attempt(1)).rejects.toMatchObject({ code: "model_error" });
    expect(ledger.settlements).toEqual([]);
    expect(ledger.released).toEqual(["s1/r1.m1.a1"]);
  });

  it("a call cancelled mid-stream is charged at least what streamed", async () => {
    const { ledger, attempt, publish } = setup([{ text: PARTIAL, chunkDelayMs: 10 }]);
    const controller = new AbortController();
    publish.hook = (delta) => {
      if (delta.index === 3) controller.abort(new EffectCancelledError("r1.m1.a1"));
    };
    const output = (await attempt(1, controller)) as ModelCallOutput;
    expect(output.cancelled).toBe(true);
    expect(output.text.length).toBeGreaterThan(0);
    expect(output.usage).toEqual({ inputTokens: 0, outputTokens: 0 });
    expect(ledger.settlements).toHaveLength(1);
    expect(ledger.settlements[0]).toMatchObject({
      inputTokens: promptTokensOf(ledger, 0),
      outputTokens: estimateTextTokens(output.text),
    });
    expect(ledger.settlements[0]!.outputTokens).toBeGreaterThan(0);
  });

  it("prices the call as the model that answered, not the one requested", async () => {
    const usage = { inputTokens: 10_000, outputTokens: 2_000 };
    const { ledger, attempt } = setup([
      { text: "Routed.", usage, responseModelId: "gpt-4o-mini-2024-07-18" },
      { text: "Dated snapshot with no price of its own.", usage, responseModelId: "gpt-4o-2099" },
    ]);
    await attempt(1);
    await attempt(2);
    // Requested gpt-4o (2.5 / 10 $ per Mtok): 10 000 × 2.5 + 2 000 × 10 = 45 000 µ$.
    // Answered by the mini snapshot (0.15 / 0.6): 10 000 × 0.15 + 2 000 × 0.6 = 2 700 µ$.
    expect(ledger.reservations[0]!.microUsd).toBe(
      costMicroUsd(
        { inputPerMTok: 2.5, outputPerMTok: 10 },
        promptTokensOf(ledger, 0),
        MAX_OUTPUT_TOKENS,
      ),
    );
    expect(ledger.settlements.map(({ microUsd }) => microUsd)).toEqual([2_700, 45_000]);
  });
});
