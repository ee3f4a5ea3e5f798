import { createRoute, z } from "@hono/zod-openapi";
import { assertSessionAccess } from "../http/access.js";
import { boundedReadable, SlowReaderError } from "../http/bounded-readable.js";
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
    const bounded = boundedReadable(frames, {
      bufferChunks: context.limits.streamBufferChunks,
      stallTimeoutMs: context.limits.stallTimeoutMs,
      onStall: () =>
        context.log(
          `gateway: cut the events stream of ${id} for a client ${context.limits.stallTimeoutMs} ms behind`,
        ),
    });
    const stream = cutOnStall(bounded, (c.env as NodeBindings | undefined)?.outgoing);
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

/** What `@hono/node-server` passes as `c.env`: the Node response among others. */
interface NodeBindings {
  readonly outgoing?: { destroy(): void };
}

/**
 * The bytes of `frames`; when `frames` fails because the client is too slow
 * (`SlowReaderError`), the connection is destroyed at once and the body ends
 * without an error (an erroring body would make `@hono/node-server` log a
 * stack and write an error text into the stream). Without a Node response to
 * destroy (another adapter), the body errors instead, which cuts it too.
 *
 * @param frames - the bounded SSE text.
 * @param outgoing - the Node response, when served by `@hono/node-server`.
 */
function cutOnStall(
  frames: ReadableStream<string>,
  outgoing: { destroy(): void } | undefined,
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
          if (!(error instanceof SlowReaderError) || outgoing === undefined) {
            controller.error(error);
            return;
          }
          outgoing.destroy();
          controller.close();
        }
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}
