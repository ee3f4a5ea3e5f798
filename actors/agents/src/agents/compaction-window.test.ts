import type { ModelCallOutput } from "@troupe/protocol";
import type { EffectContext } from "@troupe/runtime";
import { encode as o200k } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import {
  RecordingSpendLedger,
  SpendGuard,
  ScriptedModel,
  type ScriptedRequest,
} from "@troupe/models/internal";
import { AgentRegistry } from "./agent-registry.js";
import { KNOWN_CONTEXT_WINDOW_TOKENS } from "./context-budget.js";
import { defineAgent } from "./define-agent.js";
import { createModelCallHandler } from "./model-call-handler.js";
import { nextSummaryRequest } from "./summarise-transcript.js";
import { estimateTextTokens } from "./text-tokens.js";
import type { TranscriptEntry } from "./transcript-entry.js";
import { InMemoryTranscriptReader } from "./transcript-reader.js";

// Issue #31: the compaction request itself is bounded by the compaction
// model's window (here gpt-4o-mini's 128,000 tokens under an agent on
// gpt-4.1's 1,047,576), so compaction can never fail every turn.

/** The whole text of a request, as the provider would tokenise it. */
const requestText = (request: ScriptedRequest): string =>
  request.messages
    .map((message) =>
      typeof message.content === "string"
        ? message.content
        : message.content.map((part) => ("text" in part ? part.text : "")).join(""),
    )
    .join("\n");

/** Prose with a marker, about `tokens` o200k tokens long. */
const prose = (marker: string, tokens: number) =>
  `${marker} ` + "The durable agent kept its journal in order. ".repeat(Math.ceil(tokens / 9));

function setup(entries: TranscriptEntry[]) {
  const summarising: ScriptedRequest[] = [];
  const answering: ScriptedRequest[] = [];
  const compactionModel = new ScriptedModel(
    (request) => {
      summarising.push(request);
      return { text: `SUMMARY ${summarising.length}`, usage: { inputTokens: 9, outputTokens: 2 } };
    },
    { modelId: "gpt-4o-mini" },
  );
  const model = new ScriptedModel(
    (request) => {
      answering.push(request);
      return { text: "answer" };
    },
    { modelId: "gpt-4.1" },
  );
  const agents = new AgentRegistry([
    defineAgent({
      name: "assistant",
      instructions: "You are terse.",
      model,
      context: { compactionModel },
      limits: { budget: { session: { tokens: 100_000_000 }, maxOutputTokens: 1_000 } },
    }),
  ]);
  const transcript = new InMemoryTranscriptReader();
  transcript.append("s1", ...entries);
  const ledger = new RecordingSpendLedger();
  const handler = createModelCallHandler({
    agents,
    transcript,
    env: {},
    publishDelta: () => {},
    spend: new SpendGuard(ledger),
  });
  const context: EffectContext = {
    signal: new AbortController().signal,
    address: { kind: "run", id: "s1" },
    effectId: "r1.m1.a1",
    hostRun: () => Promise.resolve(1),
  };
  const call = async () =>
    (await handler(
      {
        sessionId: "s1",
        runId: "r1",
        modelCallIndex: 1,
        retry: 1,
        transcriptLength: entries.length,
        compact: "manual",
      },
      context,
    )) as ModelCallOutput;
  return { summarising, answering, call, ledger };
}

describe("compaction with a compaction model of a smaller window", () => {
  it("summarises in parts that each fit the compaction model's window, cutting an entry too long for one", async () => {
    const window = KNOWN_CONTEXT_WINDOW_TOKENS["gpt-4o"]!;
    // 30 turns of ~12,000 tokens (~360,000 in all) and one tool result of
    // ~200,000 tokens: three times the compaction model's window, a third of
    // the agent model's.
    const entries: TranscriptEntry[] = [];
    for (let turn = 0; turn < 15; turn++) {
      entries.push({
        role: "user",
        text: prose(`QUESTION-${turn}`, 12_000),
        messageId: `m${turn}`,
      });
      if (turn === 7) {
        entries.push({
          role: "assistant",
          text: prose(`ANSWER-${turn}`, 12_000),
          runId: `r${turn}`,
          toolCalls: [{ toolCallId: "t1", toolName: "fetch_page", input: "{}" }],
        });
        entries.push({
          role: "tool",
          runId: `r${turn}`,
          toolCallId: "t1",
          toolName: "fetch_page",
          status: "succeeded",
          content: prose("HUGE-RESULT", 200_000),
        });
      } else {
        entries.push({
          role: "assistant",
          text: prose(`ANSWER-${turn}`, 12_000),
          runId: `r${turn}`,
        });
      }
    }
    entries.push({ role: "user", text: "And now?", messageId: "last" });
    const { summarising, answering, call, ledger } = setup(entries);
    const output = await call();

    const sizes = summarising.map((request) => o200k(requestText(request)).length);
    console.log(`summarising requests (o200k tokens): ${sizes.join(", ")}; window ${window}`);
    expect(summarising.length).toBeGreaterThanOrEqual(4);
    for (const size of sizes) expect(size).toBeLessThanOrEqual(window);
    for (const request of summarising) {
      expect(estimateTextTokens(requestText(request))).toBeLessThanOrEqual(0.75 * window);
    }
    // Each part continues the summary of the one before.
    summarising.slice(1).forEach((request, index) => {
      expect(requestText(request)).toContain(`SUMMARY ${index + 1}`);
    });
    // Every summarised entry was in some request; only the huge result was cut.
    const all = summarising.map(requestText).join("\n");
    for (let turn = 0; turn < 15; turn++) {
      expect(all).toContain(`QUESTION-${turn} `);
      expect(all).toContain(`ANSWER-${turn} `);
    }
    expect(all).toContain("HUGE-RESULT");
    expect(all).toContain("…[cut to fit the summarising request]");
    // The last part's summary is the compaction's; usage adds up every part's.
    expect(output.compaction).toMatchObject({
      text: `SUMMARY ${summarising.length}`,
      usage: { inputTokens: 9 * summarising.length, outputTokens: 2 * summarising.length },
    });
    expect(requestText(answering[0]!)).toContain("And now?");
    // Each part is a model call of its own in the spend ledger.
    expect(ledger.settlements.map(({ effectId }) => effectId)).toEqual([
      "r1.m1.a1.compact",
      ...summarising.slice(1).map((_, index) => `r1.m1.a1.compact${index + 2}`),
      "r1.m1.a1",
    ]);
  });

  it("nextSummaryRequest: one request when unbounded; a bound splits without losing or repeating a line", () => {
    const lines = Array.from(
      { length: 50 },
      (_, index) => `[user] line ${index} ${"x".repeat(400)}`,
    );
    const whole = nextSummaryRequest(undefined, lines, 0, undefined);
    expect(whole.next).toBe(50);
    const seen: number[] = [];
    let from = 0;
    let requests = 0;
    while (from < lines.length) {
      const request = nextSummaryRequest("so far", lines, from, 2_000);
      const content = request.prompt.messages[0]!.content;
      const text = typeof content === "string" ? content : "";
      expect(
        estimateTextTokens(request.prompt.instructions) + estimateTextTokens(text),
      ).toBeLessThanOrEqual(2_000);
      for (let index = from; index < request.next; index++) {
        expect(text).toContain(`line ${index} `);
        seen.push(index);
      }
      expect(request.next).toBeGreaterThan(from);
      from = request.next;
      requests += 1;
    }
    expect(seen).toEqual(lines.map((_, index) => index));
    // 50 lines of ~104 tokens, 2,000 a request: at least 3 requests.
    expect(requests).toBeGreaterThanOrEqual(3);
  });
});
