import { decodeEvent, type EventEnvelope } from "@troupe/protocol";
import { DeliverPolicy, type JetStreamClient } from "@nats-io/jetstream";

/** A stored stream message, as read back by a test. */
export interface StoredMessage {
  readonly seq: number;
  readonly subject: string;
  readonly data: Uint8Array;
  readonly contentType: string | undefined;
  /** When the stream stored it, Unix ms (the server's clock). */
  readonly timestampMs: number;
}

/**
 * Reads every message of `stream` matching `filter` that is stored now (an
 * ordered consumer read to the end).
 *
 * @param js - JetStream client.
 * @param stream - stream name.
 * @param filter - subject filter (wildcards allowed).
 * @returns the messages in stream order.
 */
export async function readStream(
  js: JetStreamClient,
  stream: string,
  filter: string,
): Promise<StoredMessage[]> {
  const consumer = await js.consumers.get(stream, {
    filter_subjects: filter,
    deliver_policy: DeliverPolicy.All,
  });
  const info = await consumer.info();
  if (info.num_pending === 0) return [];
  const result: StoredMessage[] = [];
  const messages = await consumer.consume();
  for await (const message of messages) {
    result.push({
      seq: message.seq,
      subject: message.subject,
      data: message.data,
      contentType: message.headers?.get("Content-Type") || undefined,
      // Typed bigint, a number at run time in nats.js 3.
      timestampMs: Math.floor(Number(message.info.timestampNanos) / 1_000_000),
    });
    if (message.info.pending === 0) break;
  }
  await messages.close().catch(() => undefined);
  return result;
}

/**
 * The events of `stream` matching `filter` stored now, decoded, in stream order.
 *
 * @param js - JetStream client.
 * @param stream - the events stream (`Cluster.streams.events`).
 * @param filter - subject filter, e.g. `troupe.schedule.s1.events.schedule.fired`.
 */
export async function readStoredEvents(
  js: JetStreamClient,
  stream: string,
  filter: string,
): Promise<EventEnvelope[]> {
  return (await readStream(js, stream, filter)).map((message) =>
    decodeEvent(message.data, { contentType: message.contentType }),
  );
}
