import { describe, expect, it } from "vitest";
import { entryTokens, planCompaction, promptTokens, type IndexedEntry } from "./compaction-plan.js";
import { knownContextWindowTokens, resolveContextBudget } from "./context-budget.js";
import type { TranscriptEntry } from "./transcript-entry.js";

const user = (text: string): TranscriptEntry => ({ role: "user", text, messageId: `m-${text}` });
const answer = (text: string): TranscriptEntry => ({ role: "assistant", text, runId: "r1" });
const calls = (...ids: string[]): TranscriptEntry => ({
  role: "assistant",
  text: "",
  runId: "r1",
  toolCalls: ids.map((toolCallId) => ({ toolCallId, toolName: "lookup", input: "{}" })),
});
const result = (toolCallId: string, content = "x".repeat(40)): TranscriptEntry => ({
  role: "tool",
  runId: "r1",
  toolCallId,
  toolName: "lookup",
  status: "succeeded",
  content,
});
const indexed = (entries: TranscriptEntry[], from = 0): IndexedEntry[] =>
  entries.map((entry, offset) => ({ index: from + offset, entry }));
const words = (n: number) => "word ".repeat(n).trim();

describe("planCompaction (issue #19)", () => {
  it("does nothing under budget, and without a known budget unless asked", () => {
    const entries = indexed([user(words(10)), answer(words(10))]);
    const window = { instructions: "Be brief.", summaryText: undefined, entries };
    expect(planCompaction(window, { maxPromptTokens: 1000, keepRecentTokens: 10 }, false)).toBe(
      undefined,
    );
    expect(
      planCompaction(window, { maxPromptTokens: undefined, keepRecentTokens: 10 }, false),
    ).toBe(undefined);
  });

  it("over budget, keeps the newest entries that fit in keepRecentTokens and summarises the rest", () => {
    const entries = indexed(
      Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? user(words(20)) : answer(words(20)))),
      10,
    );
    const window = { instructions: "Be brief.", summaryText: "earlier", entries };
    const tokens = promptTokens(window.instructions, window.summaryText, entries);
    // Each entry: ⌈99 / 4⌉ + 4 = 29 tokens; 100 tokens keep 3 entries.
    const plan = planCompaction(
      window,
      { maxPromptTokens: tokens - 1, keepRecentTokens: 100 },
      false,
    );
    expect(plan).toMatchObject({ through: 27, reason: "budget", tokensBefore: tokens });
    expect(plan?.kept.map((entry) => entry.index)).toEqual([27, 28, 29]);
    expect(plan?.summarised).toHaveLength(17);
  });

  it("never cuts between a tool call and its results", () => {
    // 0 user, 1 calls(a,b), 2 result a, 3 result b, 4 answer
    const entries = indexed([
      user(words(50)),
      calls("a", "b"),
      result("a"),
      result("b"),
      answer("done"),
    ]);
    const window = { instructions: "", summaryText: undefined, entries };
    // Tokens: results 16 each, answer 5, calls 8. With 40 kept, a plain cut by size would
    // be at 2 (results a, b and the answer: 37), between the calls and their results;
    // the cut is at 4 instead (the next point where every call has its result).
    const plan = planCompaction(window, { maxPromptTokens: 1, keepRecentTokens: 40 }, false);
    expect(plan?.through).toBe(4);
    expect(plan?.summarised.map((entry) => entry.entry.role)).toEqual([
      "user",
      "assistant",
      "tool",
      "tool",
    ]);
  });

  it("a user message stored between a call and its result does not open a cut", () => {
    const entries = indexed([user("a"), calls("a"), user("steer"), result("a"), answer("ok")]);
    const window = { instructions: "", summaryText: undefined, entries };
    const plan = planCompaction(window, { maxPromptTokens: 1, keepRecentTokens: 1 }, false);
    // Cuts at 2 or 3 would split call a from its result: the smallest tail allowed is from 4.
    expect(plan?.through).toBe(4);
  });

  it("manual compaction keeps the current turn from its latest user entry", () => {
    const entries = indexed([
      user("one"),
      answer("two"),
      user("three"),
      answer("four"),
      user("five"),
    ]);
    const window = { instructions: "", summaryText: undefined, entries };
    const plan = planCompaction(window, { maxPromptTokens: undefined, keepRecentTokens: 1 }, true);
    expect(plan).toMatchObject({ through: 4, reason: "manual" });
    // A lone entry: nothing before it to summarise.
    const lone = { ...window, entries: entries.slice(0, 1) };
    expect(planCompaction(lone, { maxPromptTokens: 1, keepRecentTokens: 1 }, true)).toBe(undefined);
  });
});

describe("entryTokens", () => {
  it("remembers each entry object's estimate (stored entries never change; issue #31)", () => {
    const entry: TranscriptEntry = { role: "user", text: "a".repeat(400), messageId: "m1" };
    expect(entryTokens(entry)).toBe(104); // 400 × 0.25 + 4
    (entry as { text: string }).text = "";
    expect(entryTokens(entry)).toBe(104);
    expect(entryTokens({ ...entry })).toBe(4);
  });
});

describe("context budget defaults", () => {
  it("take 75 % of a known context window, longest prefix first, and nothing for unknown models", () => {
    expect(knownContextWindowTokens("gpt-4o-mini")).toBe(128_000);
    expect(knownContextWindowTokens("gpt-4.1-nano")).toBe(1_047_576);
    expect(resolveContextBudget(undefined, "claude-sonnet-4-5")).toEqual({
      maxPromptTokens: 150_000,
      keepRecentTokens: 37_500,
    });
    expect(resolveContextBudget(undefined, "script").maxPromptTokens).toBe(undefined);
    expect(resolveContextBudget({ maxPromptTokens: 400 }, "script")).toEqual({
      maxPromptTokens: 400,
      keepRecentTokens: 100,
    });
  });
});
