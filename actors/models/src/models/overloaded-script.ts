import type { ScriptedStep } from "./scripted-step.js";

/** The message of every failure of the `scripted:overloaded` model. */
export const OVERLOADED_MESSAGE = "the scripted model is overloaded";

/**
 * The script behind the `scripted:overloaded` model spec: every call fails
 * before anything streams with a retryable HTTP 529 (`overloaded`, the status
 * Anthropic uses when its API is overloaded), an availability error. Put it
 * first in an agent's chain (`model: ["scripted:overloaded", "scripted:demo"]`)
 * to watch a run fall back to the next model, in tests, in `troupe dev` or in
 * a deployment (docs/capabilities/fallback-models.md).
 *
 * @returns the failing step.
 * @see https://docs.anthropic.com/en/api/errors — HTTP 529 `overloaded_error`
 */
export function overloadedScript(): ScriptedStep {
  return { error: { message: OVERLOADED_MESSAGE, retryable: true, statusCode: 529 } };
}
