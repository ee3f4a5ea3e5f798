import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * What the hostile model does with one request: gets the request's last user
 * message text and the 1-based number of requests so far carrying that text,
 * and answers on the raw response (status, SSE frames, stalls).
 */
export type HostileBehaviour = (
  response: ServerResponse,
  request: { readonly lastUserText: string; readonly attempt: number },
) => void | Promise<void>;

/** A local OpenAI chat-completions server that misbehaves on purpose (issue #11). */
export interface HostileModelServer extends AsyncDisposable {
  /** `http://127.0.0.1:<port>/v1`: the base URL of an `openai-compatible:` model spec. */
  readonly baseURL: string;
  /** Requests received per last user message text. */
  requestsFor(text: string): number;
  /** Requests whose connection the client closed before the server ended the response. */
  abortedFor(text: string): number;
  close(): Promise<void>;
}

/**
 * Starts a real HTTP server on 127.0.0.1 (random port) speaking the OpenAI
 * chat-completions streaming format (`data: {chunk}` SSE frames, `data: [DONE]`),
 * whose answer to each request is chosen by `behaviour` from the last user
 * message. The helpers below write the frames.
 *
 * @param behaviour - how to answer; default a plain `"ok"` answer.
 */
export async function startHostileModelServer(
  behaviour: HostileBehaviour,
): Promise<HostileModelServer> {
  const requests = new Map<string, number>();
  const aborted = new Map<string, number>();
  const open = new Set<ServerResponse>();
  const server = createServer((request, response) => {
    void handle(request, response);
  });
  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = JSON.parse(await readBody(request)) as {
      messages?: { role: string; content: unknown }[];
    };
    const lastUser = [...(body.messages ?? [])]
      .reverse()
      .find((message) => message.role === "user");
    const lastUserText =
      typeof lastUser?.content === "string"
        ? lastUser.content
        : Array.isArray(lastUser?.content)
          ? (lastUser.content as { text?: string }[]).map((part) => part.text ?? "").join("")
          : "";
    const attempt = (requests.get(lastUserText) ?? 0) + 1;
    requests.set(lastUserText, attempt);
    open.add(response);
    response.on("close", () => {
      open.delete(response);
      if (!response.writableEnded) aborted.set(lastUserText, (aborted.get(lastUserText) ?? 0) + 1);
    });
    await behaviour(response, { lastUserText, attempt });
  }
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const close = async () => {
    for (const response of open) response.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requestsFor: (text) => requests.get(text) ?? 0,
    abortedFor: (text) => aborted.get(text) ?? 0,
    close,
    [Symbol.asyncDispose]: close,
  };
}

/** Starts a 200 `text/event-stream` response. */
export function startSse(response: ServerResponse): void {
  response.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
  response.flushHeaders();
}

/** Writes one `data:` frame holding a chat-completion chunk with `delta` (and `finish_reason`). */
export function sendChunk(
  response: ServerResponse,
  delta: Record<string, unknown>,
  finishReason: string | null = null,
): void {
  const chunk = {
    id: "chatcmpl-hostile",
    object: "chat.completion.chunk",
    created: 1,
    model: "hostile",
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
  response.write(`data: ${JSON.stringify(chunk)}\n\n`);
}

/** Writes one raw `data:` frame (e.g. an error object). */
export function sendData(response: ServerResponse, data: unknown): void {
  response.write(`data: ${JSON.stringify(data)}\n\n`);
}

/** Writes an SSE comment, as proxies and providers do to keep a connection alive. */
export function sendKeepAlive(response: ServerResponse): void {
  response.write(": keep-alive\n\n");
}

/** Answers `text` in one chunk, finishes and closes the stream. */
export function answer(response: ServerResponse, text: string): void {
  startSse(response);
  sendChunk(response, { role: "assistant", content: text });
  sendChunk(response, {}, "stop");
  response.end("data: [DONE]\n\n");
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (text += chunk));
    request.on("end", () => resolve(text));
    request.on("error", reject);
  });
}
