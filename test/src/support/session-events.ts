import type { JetStreamClient } from "@nats-io/jetstream";
import type { NatsConnection, Subscription } from "@nats-io/transport-node";
import { decodeEvent, eventWildcard, type EventEnvelope } from "@troupe/protocol";
import { waitFor } from "./wait-for.js";

/** Live events of one session, collected from a core NATS subscription. */
export interface SessionEventLog {
  readonly events: EventEnvelope[];
  /** Event types in arrival order. */
  types(): string[];
  /** Events of one type (and, if given, of one actor), in arrival order. */
  ofType(type: string, actor?: string): EventEnvelope[];
  /** Payloads of {@link SessionEventLog.ofType}. */
  payloads(type: string, actor?: string): Record<string, unknown>[];
  /** Waits for the first event of `type` (of `actor`, if given) and returns its payload. */
  first(type: string, actor?: string, timeoutMs?: number): Promise<Record<string, unknown>>;
  /** Waits until `predicate` holds for the collected events. */
  until(
    predicate: (events: readonly EventEnvelope[]) => boolean,
    timeoutMs: number,
    description: string,
  ): Promise<void>;
  stop(): void;
}

/**
 * Subscribes to `troupe.session.<id>.events.>` and decodes every event.
 *
 * @param nats - connection.
 * @param sessionId - the session.
 * @returns the growing log.
 */
export function followSession(nats: NatsConnection, sessionId: string): SessionEventLog {
  const events: EventEnvelope[] = [];
  const subscription: Subscription = nats.subscribe(
    eventWildcard({ kind: "session", id: sessionId }),
    {
      callback: (error, message) => {
        if (error !== null) return;
        events.push(
          decodeEvent(message.data, {
            contentType: message.headers?.get("Content-Type") || undefined,
          }),
        );
      },
    },
  );
  const ofType = (type: string, actor?: string) =>
    events.filter(
      (event) => event.type === type && (actor === undefined || event.meta.actor === actor),
    );
  const payloads = (type: string, actor?: string) =>
    ofType(type, actor).map((event) => event.payload as Record<string, unknown>);
  return {
    events,
    types: () => events.map((event) => event.type),
    ofType,
    payloads,
    first: async (type, actor, timeoutMs = 30_000) => {
      await waitFor(() => ofType(type, actor).length > 0, {
        timeoutMs,
        description: actor === undefined ? type : `${type} of ${actor}`,
      });
      return payloads(type, actor)[0]!;
    },
    until: (predicate, timeoutMs, description) =>
      waitFor(() => predicate(events), { timeoutMs, description }),
    stop: () => subscription.unsubscribe(),
  };
}

/**
 * Publishes one plain JSON `user.message` to a session (JetStream publish with
 * ack) and waits for its `session.idle`.
 *
 * @param connection - `nats` (for the event subscription) and `js`.
 * @param sessionId - the session.
 * @param text - the message text.
 * @param timeoutMs - how long to wait for `session.idle` (default 20 000 ms).
 * @returns the session's events seen meanwhile (the subscription is stopped).
 */
export async function sendUntilIdle(
  connection: { readonly nats: NatsConnection; readonly js: JetStreamClient },
  sessionId: string,
  text: string,
  timeoutMs = 20_000,
): Promise<SessionEventLog> {
  const log = followSession(connection.nats, sessionId);
  try {
    await connection.js.publish(
      `troupe.session.${sessionId}.in`,
      new TextEncoder().encode(JSON.stringify({ type: "user.message", text })),
    );
    await log.until(
      (events) => events.some((event) => event.type === "session.idle"),
      timeoutMs,
      "session.idle",
    );
    return log;
  } finally {
    log.stop();
  }
}
