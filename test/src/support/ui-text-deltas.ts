/**
 * The `delta`s of the `text-delta` chunks of a UI message stream body (the
 * AI SDK's SSE: one `data: {json}` line per chunk, then `data: [DONE]`), in
 * order.
 *
 * @param body - the response body read so far, as text.
 * @returns each text delta; join them for the streamed text.
 * @see https://ai-sdk.dev/docs/ai-sdk-ui/stream-protocol#ui-message-stream-protocol
 */
export function uiTextDeltas(body: string): string[] {
  return body
    .split("\n")
    .filter((line) => line.startsWith("data: {"))
    .map((line) => JSON.parse(line.slice(6)) as { type: string; delta?: string })
    .filter((chunk) => chunk.type === "text-delta")
    .map((chunk) => chunk.delta ?? "");
}
