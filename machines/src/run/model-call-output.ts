import {
  MODEL_CALL_EFFECT,
  MAX_TOOL_CALL_ID_LENGTH,
  modelCallOutputSchema,
  type ModelCallOutput,
} from "@troupe/protocol";

type CheckedModelCallOutput = { readonly output: ModelCallOutput } | { readonly problem: string };

/**
 * Results by output object: the run machine's guards and then its step read the
 * same `effect.completed.output` up to three times per message; the schema
 * parses it once. Weak keys: an entry goes with its event.
 */
const checked = new WeakMap<object, CheckedModelCallOutput>();

/**
 * Checks an effect output against the protocol's `modelCallOutputSchema` and
 * says what is wrong with it, so a malformed result fails the run (with that
 * message) instead of throwing.
 *
 * @param output - `effect.completed.output` of a `model.call`.
 * @returns `{ output }` normalised by the schema (`toolCalls` present, each with
 *   its `effectClass`; `null` fields absent), or `{ problem }` in words.
 */
export function checkModelCallOutput(output: unknown): CheckedModelCallOutput {
  if (typeof output !== "object" || output === null) return checkOnce(output);
  let result = checked.get(output);
  if (result === undefined) {
    result = checkOnce(output);
    checked.set(output, result);
  }
  return result;
}

function checkOnce(output: unknown): CheckedModelCallOutput {
  const parsed = modelCallOutputSchema.safeParse(output);
  if (parsed.success) return { output: parsed.data };
  const issues = parsed.error.issues;
  const shape = new Set<PropertyKey | undefined>([undefined, "text", "finishReason", "usage"]);
  if (issues.some((issue) => shape.has(issue.path[0]))) {
    return {
      problem: `${MODEL_CALL_EFFECT} returned an output without text, finishReason and usage`,
    };
  }
  if (issues.some((issue) => issue.path[0] === "toolCalls")) {
    return {
      problem:
        `${MODEL_CALL_EFFECT} returned malformed toolCalls: each needs a toolCallId ` +
        `(1 to ${MAX_TOOL_CALL_ID_LENGTH} characters, distinct within the response), ` +
        "a toolName, the input as text, a known effectClass, and a known decision " +
        "(allow, ask, deny) and a whole approvalTimeoutMs ≥ 1 when present",
    };
  }
  const details = issues
    .map((issue) => `${issue.path.map(String).join(".")}: ${issue.message}`)
    .join("; ");
  return { problem: `${MODEL_CALL_EFFECT} returned a malformed output (${details})` };
}

/**
 * Reads an effect output as a model call output (see {@link checkModelCallOutput}).
 *
 * @param output - `effect.completed.output` of a `model.call`.
 * @returns the normalised output, or undefined when it is not a model call output.
 */
export function readModelCallOutput(output: unknown): ModelCallOutput | undefined {
  const result = checkModelCallOutput(output);
  return "output" in result ? result.output : undefined;
}
