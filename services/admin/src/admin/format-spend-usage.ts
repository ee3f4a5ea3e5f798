import type { BudgetSpend, SessionSpend, SpendTotals, TreeSpend } from "@troupe/agents";
import { labelledLines, textTable } from "./text-table.js";

/**
 * What `troupe usage` reports (docs/capabilities/spend-limits.md): one session, a session tree, or
 * an agent's day.
 */
export type SpendUsageReport =
  | {
      readonly kind: "session";
      readonly session: SessionSpend | undefined;
      readonly tree: TreeSpend;
    }
  | { readonly kind: "tree"; readonly tree: TreeSpend }
  | {
      readonly kind: "agent_day";
      readonly agent: string;
      readonly day: string;
      readonly budget: BudgetSpend;
    };

/** US dollars to the micro-dollar, e.g. `0.000615`. */
export const formatUsd = (usd: number): string => usd.toFixed(6);

const COLUMNS = [
  { heading: "session" },
  { heading: "agent" },
  { heading: "calls", align: "right" },
  { heading: "input", align: "right" },
  { heading: "output", align: "right" },
  { heading: "tokens", align: "right" },
  { heading: "cost (USD)", align: "right" },
] as const;

const amounts = (totals: SpendTotals): string[] => [
  String(totals.calls),
  String(totals.inputTokens),
  String(totals.outputTokens),
  String(totals.tokens),
  formatUsd(totals.costUsd),
];

function treeTable(tree: TreeSpend): string {
  const rows = tree.sessions.map((session) => [
    session.sessionId === tree.rootSessionId ? session.sessionId : `  ${session.sessionId}`,
    session.agent,
    ...amounts(session),
  ]);
  rows.push(["total", "", ...amounts(tree.total)]);
  return textTable(COLUMNS, rows);
}

function held(budget: BudgetSpend): string {
  return budget.reservedTokens === 0 && budget.reservedUsd === 0
    ? "none"
    : `${budget.reservedTokens} tokens, $${formatUsd(budget.reservedUsd)} (calls running)`;
}

/**
 * The text of `troupe usage`: a table of sessions (a tree's subagent sessions
 * indented under its root, each with the agent that spent), amounts in tokens
 * and US dollars, and what reservations of running calls hold.
 *
 * @param report - what was read.
 * @returns the lines, without a trailing newline.
 */
export function formatSpendUsage(report: SpendUsageReport): string {
  if (report.kind === "agent_day") {
    const { budget } = report;
    return labelledLines([
      ["agent", report.agent],
      ["day", report.day],
      ["calls", String(budget.calls)],
      ["tokens", `${budget.tokens} (input ${budget.inputTokens}, output ${budget.outputTokens})`],
      ["cost", `$${formatUsd(budget.costUsd)}`],
      ["reserved", held(budget)],
    ]);
  }
  if (report.kind === "session" && report.session === undefined) {
    return "no spend recorded for this session (its agent has no limits.budget, or it made no model call)";
  }
  const header =
    report.kind === "session" && report.session !== undefined
      ? labelledLines([
          ["session", report.session.sessionId],
          ["agent", report.session.agent],
          [
            "own spend",
            `${report.session.tokens} tokens, $${formatUsd(report.session.costUsd)} in ${report.session.calls} calls`,
          ],
          ["tree", report.tree.rootSessionId],
        ]) + "\n\n"
      : "";
  return `${header}${treeTable(report.tree)}\nreserved  ${held(report.tree.total)}`;
}
