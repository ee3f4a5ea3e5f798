import { ScriptedModel } from "@troupe/agents";
import { describe, expect, it } from "vitest";
import type { TestDeployment, TestRunOutcome } from "../deployment/test-deployment.js";
import { runEval } from "./run-eval.js";
import { contains, exact, judge, toolCalledWith, type ScorerInput } from "./scorers.js";

const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };

/** A completed outcome with `text` and one `tool.started` per call. */
function completed(text: string, calls: ReadonlyArray<[string, unknown]> = []): TestRunOutcome {
  return {
    status: "completed",
    runId: "r1",
    text,
    usage,
    sequence: 1,
    events: calls.map(([tool, input], index) => ({
      type: "tool.started",
      payload: { toolCallId: `c${index}`, runId: "r1", tool, arguments: input },
    })),
  } as unknown as TestRunOutcome;
}

const input = (outcome: TestRunOutcome, expected?: unknown): ScorerInput => ({
  input: "q",
  ...(expected === undefined ? {} : { expected }),
  outcome,
  output: outcome.status === "completed" ? outcome.text : "",
  toolCalls: [],
});

describe("scorers", () => {
  it("exact and contains compare the answer with the expected text", async () => {
    expect(await exact().score(input(completed(" 77 °F "), "77 °F"))).toMatchObject({
      pass: true,
      score: 1,
    });
    expect(await exact("78 °F").score(input(completed("77 °F")))).toMatchObject({
      pass: false,
      score: 0,
      reason: 'expected "78 °F"',
    });
    expect(await contains().score(input(completed("It is 77 °F."), "77 °f"))).toMatchObject({
      pass: true,
    });
    expect(
      await contains("77 °f", { caseSensitive: true }).score(input(completed("It is 77 °F."))),
    ).toMatchObject({ pass: false });
    expect(await contains().score(input(completed("x")))).toMatchObject({
      pass: false,
      reason: "no expected text",
    });
  });

  it("toolCalledWith checks the tool's name and the fields given", async () => {
    const toolCalls = [{ tool: "convert", input: { value: 25, unit: "C" } }];
    const base = { ...input(completed("")), toolCalls };
    expect(await toolCalledWith("convert").score(base)).toMatchObject({ pass: true });
    expect(await toolCalledWith("convert", { unit: "C" }).score(base)).toMatchObject({
      pass: true,
    });
    expect(await toolCalledWith("convert", { unit: "F" }).score(base)).toMatchObject({
      pass: false,
      reason: 'called with [{"value":25,"unit":"C"}]',
    });
    expect(await toolCalledWith("other").score(base)).toMatchObject({
      pass: false,
      reason: "other was not called",
    });
  });

  it("judge asks a model for a score and passes at the threshold", async () => {
    const prompts: string[] = [];
    const model = new ScriptedModel(({ messages }) => {
      prompts.push(JSON.stringify(messages));
      return { text: "SCORE: 0.6\nREASON: right unit, no rounding" };
    });
    const scorer = judge({ model, criteria: "Converts correctly", threshold: 0.5 });
    expect(await scorer.score(input(completed("77 °F"), "77 °F"))).toEqual({
      scorer: "judge",
      score: 0.6,
      pass: true,
      reason: "right unit, no rounding",
    });
    expect(prompts[0]).toContain("Criteria: Converts correctly");
    expect(prompts[0]).toContain("Answer: 77 °F");
    const strict = judge({ model, criteria: "x" });
    expect((await strict.score(input(completed("y")))).pass).toBe(false);
  });
});

describe("runEval", () => {
  it("runs each case in its own session, scores it, and reports JSON and a table", async () => {
    const sessions: string[] = [];
    const answers: Record<string, TestRunOutcome> = {
      "What is 25 C in F?": completed("25 °C is 77 °F.", [["convert", { value: 25 }]]),
      "And 212 F?": completed("It is 100 °C.", [["convert", { value: 212 }]]),
      Hi: {
        status: "failed",
        runId: "r1",
        code: "model_error",
        message: "down",
        sequence: 1,
        events: [],
      } as unknown as TestRunOutcome,
    };
    const deployment = {
      sendAndWait: (sessionId: string, message: string) => {
        sessions.push(sessionId);
        return Promise.resolve(answers[message]!);
      },
    } as unknown as TestDeployment;
    const report = await runEval({
      deployment,
      dataset: [
        { id: "c to f", input: "What is 25 C in F?", expected: "77 °F" },
        { input: "And 212 F?", expected: "100 °C" },
        { input: "Hi", expected: "hello" },
      ],
      scorers: [contains(), toolCalledWith("convert")],
      concurrency: 2,
    });
    expect(sessions.sort()).toEqual(["eval-c-to-f", "eval-case-2", "eval-case-3"]);
    expect(report.cases.map((result) => [result.id, result.status, result.pass])).toEqual([
      ["c to f", "completed", true],
      ["case-2", "completed", true],
      ["case-3", "failed", false],
    ]);
    expect(report.summary).toEqual({
      cases: 3,
      passed: 2,
      scorers: {
        contains: { mean: 2 / 3, passed: 2 },
        "toolCalledWith(convert)": { mean: 2 / 3, passed: 2 },
      },
    });
    expect(JSON.parse(JSON.stringify(report))).toMatchObject({ summary: { passed: 2 } });
    expect(report.table().split("\n")).toEqual([
      "case    status     contains  toolCalledWith(convert)  pass",
      "------  ---------  --------  -----------------------  ----",
      "c to f  completed  1.00      1.00                     yes",
      "case-2  completed  1.00      1.00                     yes",
      "case-3  failed     0.00      0.00                     no",
      "mean               0.67      0.67                     2/3",
    ]);
  });
});
