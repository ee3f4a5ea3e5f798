import type { TestDeployment, TestRunOutcome } from "../deployment/test-deployment.js";
import type { EvalToolCall, Score, Scorer } from "./scorers.js";

/** One case of a dataset: an input message and, for the scorers, what is expected. */
export interface EvalCase<Expected = unknown> {
  /** Names the case in the report; default `case-<n>` (from 1). */
  readonly id?: string;
  readonly input: string;
  readonly expected?: Expected;
}

/** Options of {@link runEval}. */
export interface RunEvalOptions<Expected = unknown> {
  /** The deployment serving the agent under test (its model: a cassette, a scripted or a live one). */
  readonly deployment: TestDeployment;
  readonly dataset: readonly EvalCase<Expected>[];
  readonly scorers: readonly Scorer<Expected>[];
  /** Each case runs in its own session `<sessionPrefix>-<id>`; default `eval`. */
  readonly sessionPrefix?: string;
  /** Cases running at once; default 4. */
  readonly concurrency?: number;
  /** How long one case's run may take, in ms; default: the deployment's timeout. */
  readonly timeoutMs?: number;
}

/** The result of one case. */
export interface EvalCaseResult {
  readonly id: string;
  readonly input: string;
  readonly status: TestRunOutcome["status"];
  /** The answer (`""` unless completed). */
  readonly output: string;
  readonly toolCalls: readonly EvalToolCall[];
  readonly scores: readonly Score[];
  /** Every scorer passed. */
  readonly pass: boolean;
}

/** The whole evaluation: per case, and per scorer (mean score, cases passed). */
export interface EvalReport {
  readonly cases: readonly EvalCaseResult[];
  readonly summary: {
    readonly cases: number;
    readonly passed: number;
    readonly scorers: Readonly<Record<string, { readonly mean: number; readonly passed: number }>>;
  };
  /** The report as a text table, one row per case and a mean row. */
  table(): string;
}

/**
 * Runs every case of `dataset` against the agent of `deployment` (one session
 * per case, `concurrency` at a time) and scores each with every scorer.
 * Results are plain JSON (`JSON.stringify(report)`) and a table
 * (`report.table()`); assert on `report.summary` in a vitest test.
 *
 * @param options - see {@link RunEvalOptions}.
 * @returns the report.
 * @throws what `sendAndWait` throws for a case whose run does not end in time
 *   (a run that fails is a case with status `failed`, not an error).
 * @example
 * ```ts
 * const report = await runEval({ deployment, dataset, scorers: [contains(), toolCalledWith("order_status")] });
 * console.log(report.table());
 * expect(report.summary.passed).toBe(dataset.length);
 * ```
 */
export async function runEval<Expected = unknown>(
  options: RunEvalOptions<Expected>,
): Promise<EvalReport> {
  const prefix = options.sessionPrefix ?? "eval";
  const concurrency = Math.max(1, options.concurrency ?? 4);
  const results: EvalCaseResult[] = new Array<EvalCaseResult>(options.dataset.length);
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < options.dataset.length; index = next++) {
      results[index] = await runCase(options, options.dataset[index]!, index, prefix);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, options.dataset.length) }, worker));
  const scorerNames = options.scorers.map((scorer) => scorer.name);
  const scorers = Object.fromEntries(
    scorerNames.map((name) => {
      const scores = results.flatMap((result) =>
        result.scores.filter((score) => score.scorer === name),
      );
      const mean =
        scores.length === 0
          ? 0
          : scores.reduce((sum, score) => sum + score.score, 0) / scores.length;
      return [name, { mean, passed: scores.filter((score) => score.pass).length }];
    }),
  );
  const summary = {
    cases: results.length,
    passed: results.filter((result) => result.pass).length,
    scorers,
  };
  return {
    cases: results,
    summary,
    table: () => formatTable(results, scorerNames, summary),
    // JSON.stringify(report) drops `table`.
  };
}

async function runCase<Expected>(
  options: RunEvalOptions<Expected>,
  testCase: EvalCase<Expected>,
  index: number,
  prefix: string,
): Promise<EvalCaseResult> {
  const id = testCase.id ?? `case-${index + 1}`;
  const outcome = await options.deployment.sendAndWait(
    `${prefix}-${id}`.replace(/[^A-Za-z0-9_-]/g, "-"),
    testCase.input,
    options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs },
  );
  const output = outcome.status === "completed" ? outcome.text : "";
  const toolCalls: EvalToolCall[] = outcome.events
    .filter((event) => event.type === "tool.started")
    .map((event) => {
      const payload = event.payload as { tool: string; arguments?: unknown };
      return { tool: payload.tool, input: payload.arguments };
    });
  const scores: Score[] = [];
  for (const scorer of options.scorers) {
    scores.push(
      await scorer.score({
        input: testCase.input,
        ...(testCase.expected === undefined ? {} : { expected: testCase.expected }),
        outcome,
        output,
        toolCalls,
      }),
    );
  }
  return {
    id,
    input: testCase.input,
    status: outcome.status,
    output,
    toolCalls,
    scores,
    pass: scores.every((score) => score.pass),
  };
}

function formatTable(
  results: readonly EvalCaseResult[],
  scorers: readonly string[],
  summary: EvalReport["summary"],
): string {
  const header = ["case", "status", ...scorers, "pass"];
  const rows = results.map((result) => [
    result.id,
    result.status,
    ...scorers.map((name) => {
      const score = result.scores.find((item) => item.scorer === name);
      return score === undefined ? "-" : score.score.toFixed(2);
    }),
    result.pass ? "yes" : "no",
  ]);
  rows.push([
    "mean",
    "",
    ...scorers.map((name) => (summary.scorers[name]?.mean ?? 0).toFixed(2)),
    `${summary.passed}/${summary.cases}`,
  ]);
  const widths = header.map((_, column) =>
    Math.max(...[header, ...rows].map((row) => (row[column] ?? "").length)),
  );
  const line = (row: readonly string[]) =>
    row
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join("  ")
      .trimEnd();
  return [line(header), line(widths.map((width) => "-".repeat(width))), ...rows.map(line)].join(
    "\n",
  );
}
