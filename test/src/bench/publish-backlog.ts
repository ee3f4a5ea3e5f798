import type { JetStreamClient } from "@nats-io/jetstream";
import { headers } from "@nats-io/transport-node";
import { encodeMessage, inboxSubject, parseAddress } from "@troupe/protocol";

/** Options of {@link publishBacklog}. */
export interface BacklogOptions {
  /** Actors the messages go to, round-robin (`counter/a0` … ). */
  readonly actors: readonly string[];
  /** Total messages. */
  readonly messages: number;
  /** Publishes awaiting their JetStream ack at once; default 1 000. */
  readonly window?: number;
}

/**
 * Publishes `counter.increment` (`by: 1`) messages spread round-robin over the
 * actors' public inbox subjects, each with a JetStream ack, while no consumer runs.
 *
 * @param js - JetStream client.
 * @param options - actors and count.
 * @returns once every message is stored.
 */
export async function publishBacklog(js: JetStreamClient, options: BacklogOptions): Promise<void> {
  const subjects = options.actors.map((actor) => inboxSubject(parseAddress(actor)));
  const window = options.window ?? 1000;
  const timestampMs = Date.now();
  for (let start = 0; start < options.messages; start += window) {
    const end = Math.min(options.messages, start + window);
    const publishes: Promise<unknown>[] = [];
    for (let index = start; index < end; index += 1) {
      const { bytes, contentType } = encodeMessage({
        v: 1,
        id: `bench-${index}`,
        type: "counter.increment",
        payload: { by: 1 },
        meta: { timestampMs },
      });
      const messageHeaders = headers();
      messageHeaders.set("Content-Type", contentType);
      const subject = subjects[index % subjects.length] ?? "";
      publishes.push(js.publish(subject, bytes, { headers: messageHeaders }));
    }
    await Promise.all(publishes);
  }
}
