import type { LanguageModel } from "ai";
import { generateText } from "ai";
import { isDeepStrictEqual } from "node:util";
import type { TestRunOutcome } from "../deployment/test-deployment.js";

/** One tool call of an evaluated run, from its `tool.started` events. */
export interface EvalToolCall {
  readonly tool: string;
  /** The input as the model gave it. */
  readonly input: unknown;
}

/** What a scorer sees of one case. */
export interface ScorerInput<Expected = unknown> {
  /** The case's input message. */
  readonly input: string;
  /** The case's `expected` value, when it has one. */
  readonly expected?: Expected;
  /** How the run ended (`status`, `text` when completed, `code`/`message` when failed), with its events. */
  readonly outcome: TestRunOutcome;
  /** The run's answer; `""` when it did not complete. */
  readonly output: string;
  /** The tool calls the run made, in order. */
  readonly toolCalls: readonly EvalToolCall[];
}

/** A scorer's verdict: `score` from 0 to 1, `pass` whether it meets the scorer's bar. */
export interface Score {
  readonly scorer: string;
  readonly score: number;
  readonly pass: boolean;
  /** Why, in a few words (what was expected, what the judge said). */
  readonly reason?: string;
}

/** A scorer: a name and a function of one case. */
export interface Scorer<Expected = unknown> {
  readonly name: string;
  score(input: ScorerInput<Expected>): Score | Promise<Score>;
}

const verdict = (scorer: string, pass: boolean, reason?: string): Score => ({
  scorer,
  score: pass ? 1 : 0,
  pass,
  ...(reason === undefined ? {} : { reason }),
});

/**
 * The answer equals the case's `expected` text (or `text`), after trimming.
 *
 * @param text - the expected answer; default: the case's `expected`.
 */
export function exact(text?: string): Scorer {
  return {
    name: "exact",
    score: ({ output, expected }) => {
      const wanted = text ?? (typeof expected === "string" ? expected : undefined);
      if (wanted === undefined) return verdict("exact", false, "no expected text");
      const pass = output.trim() === wanted.trim();
      return verdict("exact", pass, pass ? undefined : `expected ${JSON.stringify(wanted)}`);
    },
  };
}

/**
 * The answer contains `text` (case-insensitive by default).
 *
 * @param text - the text to find; default: the case's `expected`.
 * @param options - `caseSensitive` (default false).
 */
export function contains(text?: string, options: { caseSensitive?: boolean } = {}): Scorer {
  return {
    name: "contains",
    score: ({ output, expected }) => {
      const wanted = text ?? (typeof expected === "string" ? expected : undefined);
      if (wanted === undefined) return verdict("contains", false, "no expected text");
      const fold = (value: string) =>
        options.caseSensitive === true ? value : value.toLowerCase();
      const pass = fold(output).includes(fold(wanted));
      return verdict(
        "contains",
        pass,
        pass ? undefined : `no ${JSON.stringify(wanted)} in the answer`,
      );
    },
  };
}

/**
 * The run called the tool `tool`, and (when given) with an input that holds
 * every field of `input` (deep equality per field).
 *
 * @param tool - the tool's name.
 * @param input - fields the call's input must have; default: any input.
 */
export function toolCalledWith(tool: string, input?: Readonly<Record<string, unknown>>): Scorer {
  const name = `toolCalledWith(${tool})`;
  return {
    name,
    score: ({ toolCalls }) => {
      const calls = toolCalls.filter((call) => call.tool === tool);
      if (calls.length === 0) return verdict(name, false, `${tool} was not called`);
      if (input === undefined) return verdict(name, true);
      const matches = calls.some((call) => {
        const given = call.input as Record<string, unknown> | null;
        return (
          given !== null &&
          typeof given === "object" &&
          Object.entries(input).every(([key, value]) => isDeepStrictEqual(given[key], value))
        );
      });
      return verdict(
        name,
        matches,
        matches ? undefined : `called with ${JSON.stringify(calls.map((call) => call.input))}`,
      );
    },
  };
}

/**
 * A judge model scores the answer against `criteria`: it is asked for one
 * line `SCORE: <0 to 1>` and a reason; the case passes at `threshold` or
 * above. The judge is any AI SDK model (a real one, a cassette, a scripted one).
 *
 * @param options - `model`, `criteria` (what a good answer does), `threshold` (default 0.7).
 * @throws Error (from `score`) when the judge's answer holds no `SCORE:` line.
 */
export function judge(options: {
  readonly model: Exclude<LanguageModel, string>;
  readonly criteria: string;
  readonly threshold?: number;
}): Scorer {
  const threshold = options.threshold ?? 0.7;
  return {
    name: "judge",
    async score({ input, output, expected }) {
      const { text } = await generateText({
        model: options.model,
        system:
          "You grade an AI agent's answer. Reply with one line `SCORE: <number from 0 to 1>` " +
          "and one line `REASON: <a short reason>`.",
        prompt: [
          `Criteria: ${options.criteria}`,
          `User message: ${input}`,
          ...(expected === undefined ? [] : [`Reference: ${JSON.stringify(expected)}`]),
          `Answer: ${output}`,
        ].join("\n"),
      });
      const match = /SCORE:\s*([0-9]*\.?[0-9]+)/i.exec(text);
      if (match === null) throw new Error(`the judge gave no SCORE line: ${text}`);
      const score = Math.min(1, Math.max(0, Number(match[1])));
      const reason = /REASON:\s*(.+)/i.exec(text)?.[1]?.trim();
      return {
        scorer: "judge",
        score,
        pass: score >= threshold,
        ...(reason === undefined ? {} : { reason }),
      };
    },
  };
}
