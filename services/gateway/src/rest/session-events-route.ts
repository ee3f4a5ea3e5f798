import { createRoute, z } from "@hono/zod-openapi";
import { assertSessionAccess } from "../http/access.js";
import { boundedReadable } from "../http/bounded-readable.js";
import type { GatewayApp, GatewayContext } from "../http/gateway-context.js";
import { errorBodySchema } from "../http/gateway-error.js";
import { BEARER_SECURITY, errorResponses } from "./openapi-parts.js";
import {
  eventEnvelopeDocSchema,
  eventsHeadersSchema,
  eventsQuerySchema,
  sessionParamsSchema,
} from "./rest-schemas.js";
import { sessionEventFrames } from "./session-event-frames.js";
import { sseCursor } from "./sse-cursor.js";

const route = createRoute({
  method: "get",
  path: "/v1/sessions/{id}/events",
  summary: "A session's events as server-sent events, resumable with Last-Event-ID",
  description:
    "Every event of the session, its runs, tool calls and subagents, stored ones from the " +
    "cursor on, then live. `id:` is the events-stream sequence of a durable event, or " +
    "`<seq>.<k>` for the k-th transient event (run.delta, tool.progress) after durable event " +
    "<seq>; `event:` the event type; `data:` the event envelope as JSON (schema EventEnvelope). " +
    "Resume with the Last-Event-ID header (EventSource sends it by itself) or ?from=<first " +
    "sequence>: no gap, no duplicate. Default: from sequence 1. A `: keep-alive` comment comes " +
    "when nothing happened for a while. A client too slow to read is disconnected; it " +
    "resumes with its Last-Event-ID. A session without events yet is followed as well (its " +
    "first message may come later).",
  tags: ["sessions"],
  security: BEARER_SECURITY,
  request: { params: sessionParamsSchema, query: eventsQuerySchema, headers: eventsHeadersSchema },
  responses: {
    200: {
      content: { "text/event-stream": { schema: z.string() } },
      description: "The event stream (never ends by itself)",
    },
    404: { content: { "application/json": { schema: errorBodySchema } }, description: "-" },
    ...errorResponses,
  },
});

/**
 * Registers `GET /v1/sessions/{id}/events` (issue #16): `client.events()`
 * from the request's cursor (`Last-Event-ID`, else `?from=`, else 1) as SSE
 * frames (`sessionEventFrames`) through a `boundedReadable`: at most
 * `limits.streamBufferChunks` frames wait for a slow client; when that queue
 * stays full for `limits.stallTimeoutMs`, the connection is cut and the
 * client resumes with its `Last-Event-ID`. The consumer stops when the client
 * goes away or the stream is cut.
 *
 * @param app - the gateway app.
 * @param context - the shared context.
 */
export function registerSessionEventsRoute(app: GatewayApp, context: GatewayContext): void {
  app.openAPIRegistry.register("EventEnvelope", eventEnvelopeDocSchema);
  app.openapi(route, (c) => {
    const { id } = c.req.valid("param");
    assertSessionAccess(c.var.scope, id);
    const cursor = sseCursor(c.req.valid("header")["last-event-id"], c.req.valid("query").from);
    const frames = sessionEventFrames({
      events: (fromSequence, signal) => context.client.events(id, { fromSequence, signal }),
      cursor,
      keepAliveMs: context.limits.keepAliveMs,
      signal: c.req.raw.signal,
    });
    const encoder = new TextEncoder();
    const stream = boundedReadable(frames, {
      bufferChunks: context.limits.streamBufferChunks,
      stallTimeoutMs: context.limits.stallTimeoutMs,
      onStall: () =>
        context.log(
          `gateway: cut the events stream of ${id} for a client ${context.limits.stallTimeoutMs} ms behind`,
        ),
    }).pipeThrough(
      new TransformStream<string, Uint8Array>({
        transform: (chunk, controller) => controller.enqueue(encoder.encode(chunk)),
      }),
    );
    return new Response(stream, {
      status: 200,
      headers: {
        "Content-Type": "text/event-stream; charset=utf-8",
        "Cache-Control": "no-cache, no-transform",
        Connection: "keep-alive",
        "X-Accel-Buffering": "no",
      },
    });
  });
}
