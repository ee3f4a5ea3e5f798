import { z } from "@hono/zod-openapi";
import { isValidActorId } from "@troupe/protocol";
import { createUIMessageStreamResponse, type UIMessageChunk } from "ai";
import { assertSessionAccess } from "../http/access.js";
import { boundedReadable } from "../http/bounded-readable.js";
import { connectionCloser } from "../http/node-connection.js";
import type { GatewayApp, GatewayContext } from "../http/gateway-context.js";
import { errorBodySchema, GatewayError } from "../http/gateway-error.js";
import { chatRequestSchema, readChatRequest } from "./chat-request.js";
import { findRunInProgress } from "./run-in-progress.js";
import { gatewayErrorOf, runChunks, sendAndFollow } from "./run-stream.js";

/**
 * `/api/chat` routes for the AI SDK's `useChat` (decision 0027):
 *
 * - `POST /api/chat` — the body `DefaultChatTransport` sends (`{ id, messages,
 *   trigger, messageId }`, `id` = session id; or `{ id, message }`). A last
 *   user message is sent with its UI id as the client message id (a retried
 *   POST starts no second run and streams the first one's run); a last
 *   assistant message with `approval-responded` tool parts approves or denies
 *   each call, then streams the rest of the same run. Answers the UI message
 *   stream (SSE, `x-vercel-ai-ui-message-stream: v1`).
 * - `GET /api/chat/:id/stream` — resume: 204 when the session has no run in
 *   progress, else the whole run's stream from its `run.started`.
 *
 * A stream ends at the run's end or when the run waits for approvals only
 * (`finish` with `tool-calls`). Closing the connection never cancels the run
 * (stop it with `POST /v1/sessions/:id/cancel`). A slow reader is cut after
 * `limits.stallTimeoutMs` with `limits.streamBufferChunks` queued; keep-alive
 * comments every `limits.keepAliveMs`.
 */
export function registerChatRoutes(app: GatewayApp, context: GatewayContext): void {
  documentChatRoutes(app);
  app.post("/api/chat", async (c) => {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      throw new GatewayError(400, "invalid_json", "The request body is not valid JSON.");
    }
    const action = readChatRequest(body);
    assertSessionAccess(c.var.scope, action.sessionId);
    const controller = new AbortController();
    if (action.kind === "send") {
      const chunks = await sendAndFollow(context.client, { ...action, signal: controller.signal });
      return streamResponse(context, chunks, controller, connectionCloser(c));
    }
    try {
      for (const response of action.responses) {
        const owner =
          response.ownerSessionId === action.sessionId
            ? {}
            : { subagentSessionId: response.ownerSessionId };
        if (response.approved) {
          await context.client.approve(action.sessionId, response.toolCallId, owner);
        } else {
          await context.client.deny(action.sessionId, response.toolCallId, {
            ...owner,
            ...(response.reason === undefined ? {} : { reason: response.reason }),
          });
        }
      }
    } catch (error) {
      throw gatewayErrorOf(error);
    }
    const chunks = runChunks(context.client, {
      sessionId: action.sessionId,
      runId: action.runId,
      startHint: action.runStartSequence,
      after: new Set(action.responses.map((response) => response.approvalId)),
      signal: controller.signal,
    });
    return streamResponse(context, chunks, controller, connectionCloser(c));
  });

  app.get("/api/chat/:id/stream", async (c) => {
    const sessionId = c.req.param("id");
    if (!isValidActorId(sessionId)) {
      throw new GatewayError(
        400,
        "invalid_request",
        `Invalid session id ${JSON.stringify(sessionId)}.`,
      );
    }
    assertSessionAccess(c.var.scope, sessionId);
    let run;
    try {
      run = await findRunInProgress(context.client, sessionId);
    } catch (error) {
      throw gatewayErrorOf(error);
    }
    if (run === undefined) return c.body(null, 204);
    const controller = new AbortController();
    const chunks = runChunks(context.client, {
      sessionId,
      runId: run.runId,
      startHint: run.sequence,
      signal: controller.signal,
    });
    return streamResponse(context, chunks, controller, connectionCloser(c));
  });
}

/** Lists the chat routes in `/v1/openapi.json` (their handlers are plain Hono routes: the body is the SDK's, the answer a stream). */
function documentChatRoutes(app: GatewayApp): void {
  const stream = {
    description:
      "The AI SDK UI message stream (SSE, `x-vercel-ai-ui-message-stream: v1`): `data: <UIMessageChunk JSON>` lines, then `data: [DONE]`.",
    content: { "text/event-stream": { schema: { type: "string" as const } } },
  };
  const error = {
    description: "A JSON error",
    content: { "application/json": { schema: errorBodySchema } },
  };
  app.openAPIRegistry.registerPath({
    method: "post",
    path: "/api/chat",
    summary: "useChat: send a user message, or answer approvals, and stream the run",
    request: { body: { content: { "application/json": { schema: chatRequestSchema } } } },
    responses: { 200: stream, 400: error, 403: error, 409: error, 413: error, 503: error },
  });
  app.openAPIRegistry.registerPath({
    method: "get",
    path: "/api/chat/{id}/stream",
    summary: "useChat resume: the run in progress from its start, or 204",
    request: { params: chatParamsSchema },
    responses: { 200: stream, 204: { description: "No run in progress." }, 400: error, 403: error },
  });
}

const chatParamsSchema = z.object({
  id: z.string().openapi({ param: { name: "id", in: "path" }, description: "The session id." }),
});

/** The SSE response of a chunk source, bounded for slow readers; closing it aborts the reading only. */
function streamResponse(
  context: GatewayContext,
  source: AsyncGenerator<UIMessageChunk>,
  controller: AbortController,
  closeConnection: (() => void) | undefined,
): Response {
  const iterator: AsyncIterator<UIMessageChunk> = {
    next: () => source.next(),
    return: (value?: unknown) => {
      // Ends the events iteration (the run goes on); the generator then finishes.
      controller.abort();
      void source.return(undefined).catch(() => undefined);
      return Promise.resolve({ done: true, value: value as UIMessageChunk });
    },
  };
  const stream = boundedReadable(iterator, {
    bufferChunks: context.limits.streamBufferChunks,
    stallTimeoutMs: context.limits.stallTimeoutMs,
    onStall: () => {
      context.log("gateway: a /api/chat reader fell behind; its stream was cut");
      closeConnection?.();
    },
  });
  return createUIMessageStreamResponse({ stream, keepAliveMs: context.limits.keepAliveMs });
}
