import type { ToolCallPart, ToolResultPart } from "ai";
import type { ToolTranscriptEntry, TranscriptToolCall } from "./transcript-entry.js";

/** What the model reads for a tool call the transcript holds no result for. */
export const MISSING_TOOL_RESULT_TEXT =
  "No result: the tool call did not complete before the run ended.";

/**
 * The AI SDK tool-call part of a transcript tool call. The raw arguments text
 * is parsed: an empty text counts as `{}`, and so does text that is not a JSON
 * object (invalid JSON, an array, …), since providers need an object there; the
 * tool's result already told the model what was wrong with it.
 *
 * @param call - the call as the transcript keeps it.
 * @returns `{ type: "tool-call", toolCallId, toolName, input }`.
 * @see https://ai-sdk.dev/docs/reference/ai-sdk-core/model-message#toolcallpart
 */
export function toolCallPart(call: TranscriptToolCall): ToolCallPart {
  return {
    type: "tool-call",
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    input: parseArgumentsObject(call.input),
  };
}

/**
 * The AI SDK tool-result part of a tool entry: a `text` output for
 * `succeeded`, an `error-text` output for every other status.
 *
 * @param entry - the tool entry.
 * @returns `{ type: "tool-result", toolCallId, toolName, output }`.
 * @see https://ai-sdk.dev/docs/reference/ai-sdk-core/model-message#toolresultpart
 */
export function toolResultPart(entry: ToolTranscriptEntry): ToolResultPart {
  return {
    type: "tool-result",
    toolCallId: entry.toolCallId,
    toolName: entry.toolName,
    output:
      entry.status === "succeeded"
        ? { type: "text", value: entry.content }
        : { type: "error-text", value: entry.content },
  };
}

/**
 * An error result for a call without one in the transcript (a run cancelled
 * while its tools ran): providers refuse a tool call that has no result.
 *
 * @param call - the unanswered call.
 */
export function missingToolResultPart(call: TranscriptToolCall): ToolResultPart {
  return {
    type: "tool-result",
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    output: { type: "error-text", value: MISSING_TOOL_RESULT_TEXT },
  };
}

function parseArgumentsObject(raw: string): Record<string, unknown> {
  if (raw.trim() === "") return {};
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}
