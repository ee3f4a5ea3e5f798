import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ToolReportedError } from "../tools/tool-call-errors.js";

/**
 * The text the model reads for an MCP `tools/call` result (issue #15):
 *
 * - only text parts: the texts, joined by newlines (or the JSON of
 *   `structuredContent` when there is no text: the spec asks servers to send
 *   it as text too);
 * - any other part — images, audio, resource links, embedded resources —
 *   the JSON `{ content, structuredContent? }`, so
 *   nothing is dropped; a result over the tool's `maxResultBytes` is kept in
 *   full by reference and shown truncated, as for local tools.
 *
 * @param result - the result as the server sent it.
 * @returns the content text.
 * @throws ToolReportedError when `isError` is true (the message is the result's
 *   text): the model reads it as the tool's failure and the call is not retried.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-result
 */
export function mcpToolResultText(result: CallToolResult): string {
  const content = Array.isArray(result.content) ? result.content : [];
  const onlyText = content.every((part) => part.type === "text");
  const text = onlyText
    ? content.map((part) => (part.type === "text" ? part.text : "")).join("\n")
    : JSON.stringify({
        content,
        ...(result.structuredContent === undefined
          ? {}
          : { structuredContent: result.structuredContent }),
      });
  if (result.isError === true) {
    throw new ToolReportedError(text === "" ? "the server reported an error without text" : text);
  }
  // The spec asks a tool with structured content to send its JSON as text too;
  // without any text, the structured content is the answer.
  if (text === "" && result.structuredContent !== undefined) {
    return JSON.stringify(result.structuredContent);
  }
  return text;
}
