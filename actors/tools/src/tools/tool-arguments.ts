import { z } from "zod";
import type { ToolDefinition } from "./define-tool.js";

/** Characters of the received arguments quoted back to the model in an error. */
const QUOTED_ARGUMENTS_CHARACTERS = 500;

/**
 * Result of {@link parseToolArguments}: the validated input, or a message for
 * the model saying what is wrong.
 *
 * Shape: `{ ok: true, input } | { ok: false, message }`.
 */
export type ToolArgumentsResult =
  | { readonly ok: true; readonly input: Record<string, unknown> }
  | { readonly ok: false; readonly message: string };

/**
 * Parses and validates the arguments a model wrote for a tool, before anything
 * runs: an empty (or blank) string counts as `{}` (models
 * often send nothing for a tool without parameters); invalid JSON or a schema
 * mismatch yields a readable message, with the zod issues and the received
 * text, that goes back to the model as the tool's result.
 *
 * @param tool - the tool called.
 * @param raw - the arguments JSON text as the model wrote it.
 * @returns the input after the schema (defaults applied), or the message.
 * @example
 * parseToolArguments(clock, "") // { ok: true, input: {} }
 * parseToolArguments(weather, '{"city":1}')
 * // { ok: false, message: 'Invalid arguments for tool "get_weather": …expected string, received number\n  → at city…' }
 */
export function parseToolArguments(tool: ToolDefinition, raw: string): ToolArgumentsResult {
  let value: unknown = {};
  if (raw.trim() !== "") {
    try {
      value = JSON.parse(raw);
    } catch (error) {
      return {
        ok: false,
        message:
          `Invalid arguments for tool "${tool.name}": they are not valid JSON (${(error as Error).message}). ` +
          `Received: ${quote(raw)}. Call the tool again with a JSON object that matches its input schema.`,
      };
    }
  }
  const parsed = tool.inputSchema.safeParse(value);
  if (parsed.success) return { ok: true, input: parsed.data };
  return {
    ok: false,
    message:
      `Invalid arguments for tool "${tool.name}":\n${z.prettifyError(parsed.error)}\n` +
      `Received: ${quote(raw)}. Call the tool again with arguments that match its input schema.`,
  };
}

function quote(raw: string): string {
  if (raw.length <= QUOTED_ARGUMENTS_CHARACTERS) return JSON.stringify(raw);
  return `${JSON.stringify(raw.slice(0, QUOTED_ARGUMENTS_CHARACTERS))} (first ${QUOTED_ARGUMENTS_CHARACTERS} of ${raw.length} characters)`;
}
