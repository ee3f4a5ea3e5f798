import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ToolReportedError } from "../tools/tool-call-errors.js";
import type { ToolMedia } from "../media/tool-result-media.js";

/**
 * An MCP result that holds images, as an MCP tool's `execute` resolves to it
 * (docs/decisions/0045): `{ content, structuredContent? }`, the server's content with
 * each image part `{ type: "image", data (base64), mimeType }` turned into a
 * {@link ToolMedia} `{ type: "image", data, mediaType }`. The `tool.execute`
 * handler then stores each image in the media store and puts its reference in
 * its place, as for a local tool's media.
 */
export interface McpResultWithMedia {
  readonly content: readonly unknown[];
  readonly structuredContent?: Record<string, unknown>;
}

/**
 * What an MCP tool's `execute` resolves to for a `tools/call` result
 * (docs/decisions/0024):
 *
 * - only text parts: the texts, joined by newlines (or the JSON of
 *   `structuredContent` when there is no text: the spec asks servers to send
 *   it as text too);
 * - image parts among them: a {@link McpResultWithMedia}, whose images the
 *   `tool.execute` handler stores by reference (same limits as a local tool's
 *   media; over them, the call fails with the `MediaRejectedError`'s message);
 * - other parts — audio, resource links, embedded resources —
 *   the JSON `{ content, structuredContent? }`, so nothing is dropped.
 *
 * A result over the tool's `maxResultBytes` is kept in full by reference and
 * shown truncated, as for local tools.
 *
 * @param result - the result as the server sent it.
 * @returns the content text, or the result with its images as {@link ToolMedia}.
 * @throws ToolReportedError when `isError` is true (the message is the result's
 *   text): the model reads it as the tool's failure and the call is not retried.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#image-content
 */
export function mcpToolResult(result: CallToolResult): string | McpResultWithMedia {
  const content = Array.isArray(result.content) ? result.content : [];
  if (result.isError === true || !content.some((part) => part.type === "image")) {
    return mcpToolResultText(result);
  }
  return {
    content: content.map((part): unknown =>
      part.type === "image"
        ? ({
            type: "image",
            data: part.data,
            mediaType: part.mimeType.trim().toLowerCase(),
          } satisfies ToolMedia)
        : part,
    ),
    ...(result.structuredContent === undefined
      ? {}
      : { structuredContent: result.structuredContent }),
  };
}

/**
 * The text the model reads for an MCP `tools/call` result (docs/decisions/0024):
 *
 * - only text parts: the texts, joined by newlines (or the JSON of
 *   `structuredContent` when there is no text: the spec asks servers to send
 *   it as text too);
 * - any other part: the JSON `{ content, structuredContent? }`, so nothing is
 *   dropped ({@link mcpToolResult} stores images by reference first).
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
