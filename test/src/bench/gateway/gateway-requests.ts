import { epochNowMs } from "../turns/turn-driver.js";
import { readServerSentEvents } from "./sse-reader.js";

/**
 * The body `DefaultChatTransport` of the `ai` package posts to `/api/chat`
 * for a new user message (issue #16 contract): `{ id, messages, trigger }`,
 * where `id` is the chat (session) id and the message's `id` its client
 * message id. Only the new message is sent (a `useChat` client sends the whole
 * history; the gateway reads the last user message).
 *
 * @param sessionId - the session id.
 * @param messageId - the user message's id (a valid client message id).
 * @param text - its text.
 * @returns the JSON body.
 */
export function chatRequestBody(sessionId: string, messageId: string, text: string): string {
  return JSON.stringify({
    id: sessionId,
    messages: [{ id: messageId, role: "user", parts: [{ type: "text", text }] }],
    trigger: "submit-message",
  });
}

/** One `POST /api/chat` timed; see {@link postChatTurn}. */
export interface ChatTurnTiming {
  /** First byte of the response body (Unix ms). */
  readonly firstByteAtMs: number;
  /** The type of the first UI message chunk (e.g. `start`). */
  readonly firstChunkType: string;
  /** The `finish` chunk's arrival (Unix ms). */
  readonly finishAtMs: number;
}

/**
 * Posts a user message to `/api/chat` and reads the UI message stream to its
 * end, timing the first byte and the `finish` chunk.
 *
 * @param baseUrl - the gateway.
 * @param sessionId - the session (chat) id.
 * @param messageId - the client message id.
 * @param text - the text.
 * @param timeoutMs - longest time for the whole request, in ms.
 * @returns the timing.
 * @throws Error for a status other than 200, a missing
 *   `x-vercel-ai-ui-message-stream` header, an `error` or `abort` chunk, or no `finish`.
 */
export async function postChatTurn(
  baseUrl: string,
  sessionId: string,
  messageId: string,
  text: string,
  timeoutMs: number,
): Promise<ChatTurnTiming> {
  const response = await fetch(`${baseUrl}/api/chat`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: chatRequestBody(sessionId, messageId, text),
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (response.status !== 200 || response.headers.get("x-vercel-ai-ui-message-stream") !== "v1") {
    const body = await response.text().catch(() => "");
    throw new Error(`POST /api/chat: ${response.status} ${body}`);
  }
  if (response.body === null) throw new Error("POST /api/chat: no body");
  let firstByteAtMs: number | undefined;
  let firstChunkType: string | undefined;
  let finishAtMs: number | undefined;
  await readServerSentEvents(response.body, {
    onFirstChunk: (atMs) => (firstByteAtMs = atMs),
    onEvent: ({ message, arrivedAtMs }) => {
      if (message.data === "[DONE]") return;
      const chunk = JSON.parse(message.data) as { type: string; errorText?: string };
      firstChunkType ??= chunk.type;
      if (chunk.type === "finish") finishAtMs ??= arrivedAtMs;
      if (chunk.type === "error" || chunk.type === "abort") {
        throw new Error(`POST /api/chat: ${chunk.type} ${chunk.errorText ?? ""}`);
      }
    },
  });
  if (firstByteAtMs === undefined || finishAtMs === undefined || firstChunkType === undefined) {
    throw new Error("POST /api/chat: the stream ended without a finish chunk");
  }
  return { firstByteAtMs, firstChunkType, finishAtMs };
}

/**
 * `POST /v1/sessions/:id/messages` `{ text, clientMessageId }` (issue #16 contract).
 *
 * @param baseUrl - the gateway.
 * @param sessionId - the session.
 * @param clientMessageId - the client message id.
 * @param text - the text.
 * @returns when the 202 answer arrived (Unix ms).
 * @throws Error for any other status.
 */
export async function postSessionMessage(
  baseUrl: string,
  sessionId: string,
  clientMessageId: string,
  text: string,
): Promise<number> {
  const response = await fetch(`${baseUrl}/v1/sessions/${sessionId}/messages`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ text, clientMessageId }),
  });
  const body = await response.text();
  const answeredAtMs = epochNowMs();
  if (response.status !== 202) throw new Error(`POST messages: ${response.status} ${body}`);
  return answeredAtMs;
}
