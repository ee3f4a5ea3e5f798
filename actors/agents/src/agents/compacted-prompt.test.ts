import { describe, expect, it } from "vitest";
import type { EffectContext } from "@troupe/runtime";
import type { BudgetWarning, ModelCallOutput } from "@troupe/protocol";
import {
  SpendGuard,
  type SpendLedger,
  type SpendReservationRequest,
  type SpendReservationResult,
  type SpendSettlement,
  ScriptedModel,
  type ScriptedRequest,
} from "@troupe/models/internal";
import { AgentRegistry } from "./agent-registry.js";
import { defineAgent } from "./define-agent.js";
import { createModelCallHandler } from "./model-call-handler.js";
import { InMemoryTranscriptReader } from "./transcript-reader.js";
import { COMPACTION_INSTRUCTIONS_MARKER } from "./summarise-transcript.js";
import type { TranscriptEntry } from "./transcript-entry.js";

const systemOf = (request: ScriptedRequest): string =>
  request.messages
    .filter((message) => message.role === "system")
    .map((message) => String(message.content))
    .join("\n");
const textOf = (request: ScriptedRequest): string =>
  JSON.stringify(request.messages.filter((message) => message.role !== "system"));

/** A ledger that records reservations and settlements and refuses what `refuse` names. */
class RecordingLedger implements SpendLedger {
  readonly reservations: SpendReservationRequest[] = [];
  readonly settlements: SpendSettlement[] = [];
  readonly released: string[] = [];
  constructor(private readonly refuse: (effectId: string) => boolean = () => false) {}
  reserve(request: SpendReservationRequest): Promise<SpendReservationResult> {
    this.reservations.push(request);
    if (!this.refuse(request.effectId)) return Promise.resolve({ kind: "reserved" });
    const budget = request.budgets[0]!;
    return Promise.resolve({
      kind: "refused",
      budget,
      unit: "tokens",
      spent: 0,
      reserved: 0,
      limit: 1,
      needed: request.tokens,
    });
  }
  settle(settlement: SpendSettlement): Promise<readonly BudgetWarning[]> {
    this.settlements.push(settlement);
    const warning: BudgetWarning = {
      scope: "session",
      scopeId: "s1",
      unit: "tokens",
      spent: settlement.inputTokens + settlement.outputTokens,
      limit: 100,
      warnAt: 0.5,
    };
    return Promise.resolve(settlement.effectId.endsWith(".compact") ? [warning] : []);
  }
  release(sessionId: string, effectId: string): Promise<void> {
    this.released.push(`${sessionId}/${effectId}`);
    return Promise.resolve();
  }
}

function setup(
  entries: TranscriptEntry[],
  context: { maxPromptTokens?: number } = {},
  ledger?: SpendLedger,
) {
  const requests: ScriptedRequest[] = [];
  const model = new ScriptedModel((request) => {
    requests.push(request);
    return systemOf(request).includes(COMPACTION_INSTRUCTIONS_MARKER)
      ? {
          text: "SUMMARY: questions one to six were answered.",
          usage: { inputTokens: 50, outputTokens: 9 },
        }
      : { text: "answer" };
  });
  const agents = new AgentRegistry([
    defineAgent({
      name: "assistant",
      instructions: "You are terse.",
      model,
      context,
      ...(ledger === undefined ? {} : { limits: { budget: { maxOutputTokens: 64 } } }),
    }),
  ]);
  const transcript = new InMemoryTranscriptReader();
  transcript.append("s1", ...entries);
  const handler = createModelCallHandler({
    agents,
    transcript,
    env: {},
    publishDelta: () => {},
    ...(ledger === undefined ? {} : { spend: new SpendGuard(ledger) }),
  });
  const effectContext: EffectContext = {
    signal: new AbortController().signal,
    address: { kind: "run", id: "s1" },
    effectId: "r1.m1.a1",
    hostRun: () => Promise.resolve(1),
  };
  const call = async (input: Record<string, unknown>) =>
    (await handler(
      { sessionId: "s1", runId: "r1", modelCallIndex: 1, retry: 1, ...input },
      effectContext,
    )) as ModelCallOutput;
  return { requests, call, transcript };
}

const turns = (n: number): TranscriptEntry[] =>
  Array.from({ length: n }, (_, i) =>
    i % 2 === 0
      ? { role: "user", text: `question ${i / 2 + 1} ${"blah ".repeat(20)}`, messageId: `m${i}` }
      : { role: "assistant", text: `answer ${(i + 1) / 2} ${"blah ".repeat(20)}`, runId: "r0" },
  );

describe("model.call with a token budget (issue #19)", () => {
  it("over budget: summarises the older entries first, then calls the model with the summary and the kept entries", async () => {
    const { requests, call } = setup(turns(13), { maxPromptTokens: 200 });
    const output = await call({ transcriptLength: 13 });
    expect(requests).toHaveLength(2);
    const [summarising, answering] = requests;
    expect(textOf(summarising!)).toContain("question 1 ");
    expect(output.compaction).toMatchObject({
      text: "SUMMARY: questions one to six were answered.",
      reason: "budget",
      model: "troupe.scripted:script",
      usage: { inputTokens: 50, outputTokens: 9 },
    });
    const { through, tokensBefore, tokensAfter } = output.compaction!;
    expect(tokensBefore).toBeGreaterThan(200);
    expect(tokensAfter).toBeLessThanOrEqual(200);
    expect(systemOf(answering!)).toContain("SUMMARY: questions one to six were answered.");
    expect(textOf(answering!)).not.toContain("question 1 ");
    expect(textOf(answering!)).toContain("question 7 ");
    expect(through % 2).toBe(0); // cut at a user entry here: a turn is not split
    expect(output.text).toBe("answer");
  });

  it("under budget: one model call, no compaction", async () => {
    const { requests, call } = setup(turns(3), { maxPromptTokens: 10_000 });
    const output = await call({ transcriptLength: 3 });
    expect(requests).toHaveLength(1);
    expect(output.compaction).toBeUndefined();
  });

  it("after a compaction, reads from the summary's cut and leaves the summary out of the messages", async () => {
    const entries = turns(13);
    const summary: TranscriptEntry = {
      role: "summary",
      text: "OLD SUMMARY",
      through: 10,
      tokensBefore: 900,
      tokensAfter: 100,
    };
    const { requests, call, transcript } = setup([...entries, summary], {
      maxPromptTokens: 10_000,
    });
    transcript.append("s1", { role: "assistant", text: "after the summary", runId: "r1" });
    const output = await call({ transcriptLength: 15, summaryIndex: 13 });
    expect(output.compaction).toBeUndefined();
    const request = requests[0]!;
    expect(systemOf(request)).toContain("OLD SUMMARY");
    const messages = textOf(request);
    expect(messages).not.toContain("question 5 ");
    expect(messages).toContain("question 6 ");
    expect(messages).toContain("after the summary");
    expect(messages).not.toContain("OLD SUMMARY");
  });

  it("compact: manual summarises even under budget and keeps the latest user turn", async () => {
    const { requests, call } = setup(turns(5));
    const output = await call({ transcriptLength: 5, compact: "manual" });
    expect(requests).toHaveLength(2);
    expect(output.compaction).toMatchObject({ reason: "manual", through: 4 });
    expect(textOf(requests[1]!)).toContain("question 3 ");
    expect(textOf(requests[1]!)).not.toContain("question 2 ");
  });

  it("with spend limits, the summarising call reserves and settles under <effectId>.compact, and its warnings reach the output", async () => {
    const ledger = new RecordingLedger();
    const { call } = setup(turns(13), { maxPromptTokens: 200 }, ledger);
    const output = await call({ transcriptLength: 13 });
    expect(ledger.reservations.map((request) => request.effectId)).toEqual([
      "r1.m1.a1.compact",
      "r1.m1.a1",
    ]);
    const [summarising, answering] = ledger.reservations;
    // The same budgets as the call itself; the worst case assumes maxOutputTokens 64.
    expect(summarising!.budgets).toEqual(answering!.budgets);
    expect(summarising!.tokens).toBeGreaterThan(64);
    expect(ledger.settlements.map((settlement) => settlement.effectId)).toEqual([
      "r1.m1.a1.compact",
      "r1.m1.a1",
    ]);
    expect(ledger.settlements[0]).toMatchObject({ inputTokens: 50, outputTokens: 9 });
    expect(output.budgetWarnings).toEqual([
      { scope: "session", scopeId: "s1", unit: "tokens", spent: 59, limit: 100, warnAt: 0.5 },
    ]);
  });

  it("a refused summarising call fails the model call budget_exceeded before any model is called", async () => {
    const ledger = new RecordingLedger((effectId) => effectId.endsWith(".compact"));
    const { requests, call } = setup(turns(13), { maxPromptTokens: 200 }, ledger);
    await expect(call({ transcriptLength: 13 })).rejects.toMatchObject({
      code: "budget_exceeded",
    });
    expect(requests).toHaveLength(0);
    expect(ledger.settlements).toEqual([]);
  });

  it("a failed summarising call releases its reservation", async () => {
    const ledger = new RecordingLedger();
    const agents = new AgentRegistry([
      defineAgent({
        name: "assistant",
        instructions: "You are terse.",
        model: new ScriptedModel(() => ({ error: { message: "provider down", retryable: false } })),
        context: { maxPromptTokens: 200 },
        limits: { budget: {} },
      }),
    ]);
    const transcript = new InMemoryTranscriptReader();
    transcript.append("s1", ...turns(13));
    const handler = createModelCallHandler({
      agents,
      transcript,
      env: {},
      publishDelta: () => {},
      spend: new SpendGuard(ledger),
    });
    await expect(
      handler(
        { sessionId: "s1", runId: "r1", modelCallIndex: 1, retry: 1, transcriptLength: 13 },
        {
          signal: new AbortController().signal,
          address: { kind: "run", id: "s1" },
          effectId: "r1.m1.a1",
          hostRun: () => Promise.resolve(1),
        },
      ),
    ).rejects.toThrow();
    expect(ledger.released).toEqual(["s1/r1.m1.a1.compact"]);
    expect(ledger.settlements).toEqual([]);
  });

  it("an agent with a bad budget is refused at definition", () => {
    expect(() =>
      defineAgent({ name: "a", instructions: "x", context: { maxPromptTokens: 0 } }),
    ).toThrow(/context.maxPromptTokens/);
  });
});
