import { createRoute, z } from "@hono/zod-openapi";
import { assertSessionAccess } from "../http/access.js";
import { boundedReadable, SlowReaderError } from "../http/bounded-readable.js";
import { connectionCloser } from "../http/node-connection.js";
import type { GatewayApp, GatewayContext } from "../http/gateway-context.js";
import { errorBodySchema, GatewayError } from "../http/gateway-error.js";
import { gatewayErrorOf } from "./client-error.js";
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
 * Registers `GET /v1/sessions/{id}/events` (docs/decisions/0028): `client.events()`
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
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    assertSessionAccess(c.var.scope, id);
    const cursor = sseCursor(c.req.valid("header")["last-event-id"], c.req.valid("query").from);
    // A cursor past the stream's end is not one this deployment gave (an id
    // kept across `troupe dev --fresh`, say): following from it would skip
    // every event until the stream got there.
    const last = await context.client.lastSequence().catch((error: unknown) => {
      throw gatewayErrorOf(error);
    });
    if (cursor.fromSequence - 1 > last) {
      throw new GatewayError(
        400,
        "invalid_request",
        `The cursor (Last-Event-ID or from) is past the events stream's last sequence ${last}: ` +
          "it is not a cursor of this deployment. Reconnect without it (or with from=1).",
      );
    }
    const frames = sessionEventFrames({
      events: (fromSequence, signal) => context.client.events(id, { fromSequence, signal }),
      cursor,
      keepAliveMs: context.limits.keepAliveMs,
      signal: c.req.raw.signal,
    });
    const closeConnection = connectionCloser(c);
    const bounded = boundedReadable(frames, {
      bufferChunks: context.limits.streamBufferChunks,
      stallTimeoutMs: context.limits.stallTimeoutMs,
      onStall: () => {
        context.log(
          `gateway: cut the events stream of ${id} for a client ${context.limits.stallTimeoutMs} ms behind`,
        );
        closeConnection?.();
      },
    });
    const stream = cutOnStall(bounded, closeConnection);
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

/**
 * The bytes of `frames`; when `frames` fails because the client is too slow
 * (`SlowReaderError`), the connection is destroyed at once and the body ends
 * without an error (an erroring body would make `@hono/node-server` log a
 * stack and write an error text into the stream). Without a Node response to
 * destroy (another adapter), the body errors instead, which cuts it too.
 *
 * @param frames - the bounded SSE text.
 * @param closeConnection - destroys the Node connection, when served by `@hono/node-server`.
 */
function cutOnStall(
  frames: ReadableStream<string>,
  closeConnection: (() => void) | undefined,
): ReadableStream<Uint8Array> {
  const reader = frames.getReader();
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const next = await reader.read();
          if (next.done) controller.close();
          else controller.enqueue(encoder.encode(next.value));
        } catch (error) {
          if (!(error instanceof SlowReaderError) || closeConnection === undefined) {
            controller.error(error);
            return;
          }
          closeConnection();
          controller.close();
        }
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}
