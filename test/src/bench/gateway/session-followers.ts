import type { TroupeClient } from "@troupe/client";
import { epochNowMs } from "../turns/turn-driver.js";
import { ArrivalWaiters } from "./arrival-waiters.js";
import { readServerSentEvents } from "./sse-reader.js";

/** An event of a session as both followers see it: the envelope's id, type and payload. */
export interface FollowedEvent {
  readonly id: string;
  readonly type: string;
  readonly payload: Record<string, unknown>;
}

/** A follower of one session's events: a `TroupeClient.events` iteration or an SSE stream. */
export interface SessionFollower {
  /** Waits for the events it receives (register before the action that causes them). */
  readonly waiters: ArrivalWaiters<FollowedEvent>;
  /** Resolves when the stream ended: undefined after `close()`, else why it ended early. */
  readonly ended: Promise<Error | undefined>;
  /** Ends the stream. */
  close(): void;
}

/**
 * Follows a session through the client directly (`client.events`), from
 * `fromSequence` on; each event is delivered with its arrival time.
 *
 * @param client - a connected client.
 * @param sessionId - the session.
 * @param fromSequence - the first events-stream sequence read.
 * @param onEvent - called with each event and its arrival, besides the waiters.
 * @returns the follower.
 */
export function followDirect(
  client: TroupeClient,
  sessionId: string,
  fromSequence: number,
  onEvent?: (event: FollowedEvent, arrivedAtMs: number) => void,
): SessionFollower {
  const waiters = new ArrivalWaiters<FollowedEvent>();
  const abort = new AbortController();
  const ended = (async (): Promise<Error | undefined> => {
    try {
      for await (const { event } of client.events(sessionId, {
        fromSequence,
        signal: abort.signal,
      })) {
        const arrivedAtMs = epochNowMs();
        onEvent?.(event, arrivedAtMs);
        waiters.deliver(event, arrivedAtMs);
      }
      return abort.signal.aborted ? undefined : new Error(`events(${sessionId}) ended`);
    } catch (error) {
      return abort.signal.aborted ? undefined : asError(error);
    }
  })();
  void ended.then((error) => waiters.fail(error ?? new Error("follower closed")));
  return { waiters, ended, close: () => abort.abort() };
}

/** Options of {@link followSse}. */
export interface FollowSseOptions {
  /** The `Last-Event-ID` sent: the stream resumes after this events-stream sequence. */
  readonly lastEventId: string;
  /** `Authorization: Bearer <token>`, when the gateway needs one. */
  readonly token?: string;
  /** Called with each event and its arrival, besides the waiters. */
  readonly onEvent?: (event: FollowedEvent, arrivedAtMs: number) => void;
}

/**
 * Follows a session through the gateway: `GET /v1/sessions/:id/events` as SSE
 * (issue #16), each `data:` parsed as the event envelope.
 *
 * @param baseUrl - the gateway, e.g. `http://127.0.0.1:7400`.
 * @param sessionId - the session.
 * @param options - resume point, token, callback.
 * @returns once the response headers arrived (status 200, `text/event-stream`).
 * @throws Error naming the status and body otherwise.
 */
export async function followSse(
  baseUrl: string,
  sessionId: string,
  options: FollowSseOptions,
): Promise<SessionFollower> {
  const abort = new AbortController();
  const response = await fetch(`${baseUrl}/v1/sessions/${sessionId}/events`, {
    headers: {
      accept: "text/event-stream",
      "last-event-id": options.lastEventId,
      ...(options.token === undefined ? {} : { authorization: `Bearer ${options.token}` }),
    },
    signal: abort.signal,
  });
  const contentType = response.headers.get("content-type") ?? "";
  if (response.status !== 200 || !contentType.startsWith("text/event-stream") || !response.body) {
    const body = await response.text().catch(() => "");
    throw new Error(`GET events of ${sessionId}: ${response.status} ${contentType} ${body}`);
  }
  const waiters = new ArrivalWaiters<FollowedEvent>();
  const body = response.body;
  const ended = (async (): Promise<Error | undefined> => {
    try {
      await readServerSentEvents(body, {
        onEvent: ({ message, arrivedAtMs }) => {
          const event = JSON.parse(message.data) as FollowedEvent;
          options.onEvent?.(event, arrivedAtMs);
          waiters.deliver(event, arrivedAtMs);
        },
      });
      return abort.signal.aborted ? undefined : new Error(`SSE of ${sessionId} ended`);
    } catch (error) {
      return abort.signal.aborted ? undefined : asError(error);
    }
  })();
  void ended.then((error) => waiters.fail(error ?? new Error("follower closed")));
  return { waiters, ended, close: () => abort.abort() };
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
