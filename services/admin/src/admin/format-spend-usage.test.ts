import { describe, expect, it } from "vitest";
import { formatSpendUsage } from "./format-spend-usage.js";

const totals = (calls: number, inputTokens: number, outputTokens: number, costUsd: number) => ({
  calls,
  inputTokens,
  outputTokens,
  tokens: inputTokens + outputTokens,
  costUsd,
});
const tree = {
  rootSessionId: "s1",
  total: {
    scope: "session" as const,
    scopeId: "s1",
    ...totals(3, 300, 150, 0.000615),
    reservedTokens: 0,
    reservedUsd: 0,
  },
  sessions: [
    { sessionId: "s1", agent: "boss", rootSessionId: "s1", ...totals(2, 200, 100, 0.0004) },
    {
      sessionId: "sub-t1",
      agent: "boss--helper",
      rootSessionId: "s1",
      ...totals(1, 100, 50, 0.000215),
    },
  ],
};

describe("troupe usage text (issue #19)", () => {
  it("a tree: each session with its agent, subagents indented, a total and the reservations held", () => {
    expect(formatSpendUsage({ kind: "tree", tree })).toBe(
      [
        "session   agent         calls  input  output  tokens  cost (USD)",
        "s1        boss              2    200     100     300    0.000400",
        "  sub-t1  boss--helper      1    100      50     150    0.000215",
        "total                       3    300     150     450    0.000615",
        "reserved  none",
      ].join("\n"),
    );
  });

  it("an agent's day, with what running calls hold", () => {
    const text = formatSpendUsage({
      kind: "agent_day",
      agent: "boss",
      day: "2026-12-01",
      budget: {
        scope: "agent_day",
        scopeId: "boss/2026-12-01",
        ...totals(4, 1000, 500, 0.5),
        reservedTokens: 4200,
        reservedUsd: 0.0026,
      },
    });
    expect(text).toContain("tokens    1500 (input 1000, output 500)");
    expect(text).toContain("cost      $0.500000");
    expect(text).toContain("reserved  4200 tokens, $0.002600 (calls running)");
  });

  it("a session without records says why", () => {
    expect(formatSpendUsage({ kind: "session", session: undefined, tree })).toMatch(
      /no spend recorded/,
    );
  });
});
