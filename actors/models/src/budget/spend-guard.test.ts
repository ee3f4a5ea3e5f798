import { describe, expect, it } from "vitest";
import { budgetOptionsSchema, type BudgetOptions } from "./budget-options.js";
import { BudgetExceededError } from "./budget-exceeded-error.js";
import { RecordingSpendLedger as RecordingLedger } from "./recording-spend-ledger.js";
import { SpendGuard, type BudgetedAgent, type SpendCall } from "./spend-guard.js";

const agent = (name: string, budget?: BudgetOptions): BudgetedAgent => ({
  name,
  limits: {
    modelCallTimeoutMs: 600_000,
    ...(budget === undefined ? {} : { budget: budgetOptionsSchema.parse(budget) }),
  },
});
const now = Date.UTC(2026, 11, 1, 12, 0);
const call = (overrides: Partial<SpendCall> = {}): SpendCall => ({
  sessionId: "s1",
  runId: "r1",
  effectId: "r1.m1.a1",
  rootSessionId: "s1",
  agent: agent("boss", { session: { tokens: 10_000 } }),
  rootAgent: agent("boss", { session: { tokens: 10_000 } }),
  model: { spec: "openai:gpt-4o-mini", modelId: "gpt-4o-mini" },
  promptTokens: 100,
  ...overrides,
});

describe("SpendGuard (issue #19)", () => {
  it("an agent without limits.budget reserves nothing", async () => {
    const ledger = new RecordingLedger();
    const plain = agent("plain");
    const hold = await new SpendGuard(ledger).reserve(call({ agent: plain, rootAgent: plain }));
    expect(hold).toBeUndefined();
    expect(ledger.reservations).toEqual([]);
  });

  it("reserves estimated input + maxOutputTokens, priced, against run, session tree and agent-day", async () => {
    const ledger = new RecordingLedger();
    const boss = agent("boss", {
      run: { tokens: 5000 },
      session: { costUsd: 0.5 },
      agentDay: { tokens: 100_000, costUsd: 2 },
      maxOutputTokens: 1000,
      timeZone: "Asia/Tokyo",
    });
    const hold = await new SpendGuard(ledger, { now: () => now }).reserve(
      call({ agent: boss, rootAgent: boss }),
    );
    expect(hold?.maxOutputTokens).toBe(1000);
    const [request] = ledger.reservations;
    // 400 characters ≈ 100 input tokens; gpt-4o-mini: 100 × 0.15 + 1000 × 0.6 = 615 µ$.
    expect(request).toMatchObject({
      tokens: 1100,
      microUsd: 615,
      effectId: "r1.m1.a1",
    });
    // Held for modelCallTimeoutMs + 60 s, counted by the ledger's clock (not the host's).
    expect(request!.holdMs).toBe(600_000 + 60_000);
    expect(
      request!.budgets.map(({ scope, scopeId, tokens, microUsd }) => ({
        scope,
        scopeId,
        tokens,
        microUsd,
      })),
    ).toEqual([
      { scope: "run", scopeId: "s1/r1", tokens: 5000, microUsd: undefined },
      { scope: "session", scopeId: "s1", tokens: undefined, microUsd: 500_000 },
      { scope: "agent_day", scopeId: "boss/2026-12-01", tokens: 100_000, microUsd: 2_000_000 },
    ]);
  });

  it("a subagent's call counts against its parent's session tree and the parent agent's day and limits", async () => {
    const ledger = new RecordingLedger();
    const parent = agent("boss", { session: { tokens: 10_000 }, agentDay: { tokens: 50_000 } });
    const child = agent("boss--researcher", { run: { tokens: 3000 }, maxOutputTokens: 500 });
    const hold = await new SpendGuard(ledger, { now: () => now }).reserve(
      call({ sessionId: "sub-t1", rootSessionId: "s1", agent: child, rootAgent: parent }),
    );
    expect(hold?.maxOutputTokens).toBe(500);
    expect(
      ledger.reservations[0]!.budgets.map((budget) => [
        budget.scope,
        budget.scopeId,
        budget.tokens,
      ]),
    ).toEqual([
      ["run", "sub-t1/r1", 3000],
      ["session", "s1", 10_000],
      ["agent_day", "boss/2026-12-01", 50_000],
    ]);
    await hold!.settle({ inputTokens: 120, outputTokens: 30 });
    expect(ledger.settlements[0]).toMatchObject({
      sessionId: "sub-t1",
      agent: "boss--researcher",
      rootSessionId: "s1",
      inputTokens: 120,
      outputTokens: 30,
      microUsd: 36, // 120 × 0.15 + 30 × 0.6 = 36 µ$
    });
  });

  it("a subagent's call also counts against the delegating run, with the root agent's run limit", async () => {
    const ledger = new RecordingLedger();
    const parent = agent("boss", { run: { tokens: 8000, costUsd: 0.25 }, session: {} });
    const child = agent("boss--researcher", { run: { tokens: 3000 } });
    const guard = new SpendGuard(ledger, { now: () => now });
    await guard.reserve(
      call({
        sessionId: "sub-t1",
        rootSessionId: "s1",
        parentRunId: "r4",
        agent: child,
        rootAgent: parent,
      }),
    );
    expect(
      ledger.reservations[0]!.budgets.map(({ scope, scopeId, tokens, microUsd }) => [
        scope,
        scopeId,
        tokens,
        microUsd,
      ]),
    ).toEqual([
      ["run", "sub-t1/r1", 3000, undefined],
      ["session", "s1", undefined, undefined],
      ["agent_day", "boss/2026-12-01", undefined, undefined],
      ["run", "s1/r4", 8000, 250_000],
    ]);
    // A top-level call keeps its three budgets (a parentRunId without a parent session is ignored).
    await guard.reserve(call({ agent: parent, rootAgent: parent, parentRunId: "r9" }));
    expect(ledger.reservations[1]!.budgets.map(({ scope, scopeId }) => [scope, scopeId])).toEqual([
      ["run", "s1/r1"],
      ["session", "s1"],
      ["agent_day", "boss/2026-12-01"],
    ]);
  });

  it("a refusal throws budget_exceeded (not retryable) naming the budget and its amounts", async () => {
    const budget = {
      scope: "session",
      scopeId: "s1",
      tokens: 1000,
      microUsd: undefined,
      ttlMs: 1,
    } as const;
    const ledger = new RecordingLedger({
      kind: "refused",
      budget,
      unit: "tokens",
      spent: 700,
      reserved: 200,
      limit: 1000,
      needed: 1100,
    });
    const error = await new SpendGuard(ledger).reserve(call()).catch((thrown: unknown) => thrown);
    expect(BudgetExceededError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: "budget_exceeded",
      retryable: false,
      details: {
        scope: "session",
        scopeId: "s1",
        unit: "tokens",
        spent: 700,
        reserved: 200,
        limit: 1000,
        needed: 1100,
      },
    });
    expect((error as Error).message).toContain("session tree budget s1");
  });

  it("a re-run of a settled call neither settles nor releases again and repeats the first warnings", async () => {
    const warning = {
      scope: "run",
      scopeId: "s1/r1",
      unit: "tokens",
      spent: 900,
      limit: 1000,
      warnAt: 0.8,
    } as const;
    const ledger = new RecordingLedger({ kind: "settled", warnings: [warning] });
    const hold = await new SpendGuard(ledger).reserve(call());
    expect(await hold!.settle({ inputTokens: 5, outputTokens: 5 })).toEqual([warning]);
    await hold!.release();
    expect(ledger.settlements).toEqual([]);
    expect(ledger.released).toEqual([]);
  });

  it("a store error becomes a retryable unavailable error", async () => {
    const ledger = new RecordingLedger();
    ledger.reserve = () => Promise.reject(new Error("connect ECONNREFUSED"));
    await expect(new SpendGuard(ledger).reserve(call())).rejects.toMatchObject({
      code: "unavailable",
      retryable: true,
    });
  });
});

describe("limits.budget options", () => {
  it("fills in warnAt 0.8, maxOutputTokens 4096, UTC and no pricing", () => {
    expect(budgetOptionsSchema.parse({})).toEqual({
      warnAt: 0.8,
      pricing: {},
      maxOutputTokens: 4096,
      timeZone: "UTC",
    });
  });

  it("refuses a bad warnAt, an unknown time zone, a negative price and unknown fields", () => {
    const issues = (value: unknown) =>
      budgetOptionsSchema.safeParse(value).error?.issues.map((issue) => issue.path.join("."));
    expect(issues({ warnAt: 1.5 })).toEqual(["warnAt"]);
    expect(issues({ timeZone: "Mars/Olympus" })).toEqual(["timeZone"]);
    expect(issues({ pricing: { x: { inputPerMTok: -1, outputPerMTok: 1 } } })).toEqual([
      "pricing.x.inputPerMTok",
    ]);
    expect(issues({ session: { tokens: 10, dollars: 1 } })).toEqual(["session"]);
  });
});
