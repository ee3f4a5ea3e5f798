import type { NatsConnection, Subscription } from "@nats-io/transport-node";
import { decodeEvent, eventWildcard, type EventEnvelope } from "@troupe/protocol";
import { waitFor } from "./wait-for.js";

/** Live events of one session, collected from a core NATS subscription. */
export interface SessionEventLog {
  readonly events: EventEnvelope[];
  /** Event types in arrival order. */
  types(): string[];
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
  return {
    events,
    types: () => events.map((event) => event.type),
    until: (predicate, timeoutMs, description) =>
      waitFor(() => predicate(events), { timeoutMs, description }),
    stop: () => subscription.unsubscribe(),
  };
}
