import { DeliverPolicy, type JetStreamClient } from "@nats-io/jetstream";
import {
  builtinMessageSchemas,
  decodeMessage,
  hostMessageSchemas,
  parseShardInboxSubject,
} from "@troupe/protocol";

/** One message of the inbox stream (the journal), decoded. */
export interface JournaledMessage {
  /** Stream sequence. */
  readonly seq: number;
  /** Receiving actor's kind and id, from `_troupe.inbox.<shard>.<kind>.<id>`. */
  readonly kind: string;
  readonly id: string;
  /** Message type, or `undecodable`. */
  readonly type: string;
  /** The payload as plain data (`{}` when undecodable). */
  readonly payload: Readonly<Record<string, unknown>>;
  /** When JetStream stored it (Unix ms, µs resolution). */
  readonly storedAtMs: number;
}

const schemas = { ...builtinMessageSchemas, ...hostMessageSchemas };

/**
 * Reads inbox messages `fromSeq` … `toSeq` (inclusive) with an ordered consumer
 * and decodes them with the host's schemas (public commands and host messages).
 *
 * @param js - JetStream client.
 * @param stream - the inbox stream's name.
 * @param fromSeq - first stream sequence, from 1.
 * @param toSeq - last stream sequence (at most the stream's last).
 * @param timeoutMs - longest wait for the whole range, in ms.
 * @returns the messages in stream order.
 * @throws Error when the range is not read within `timeoutMs`.
 */
export async function readInboxRange(
  js: JetStreamClient,
  stream: string,
  fromSeq: number,
  toSeq: number,
  timeoutMs = 15_000,
): Promise<JournaledMessage[]> {
  if (toSeq < fromSeq) return [];
  const consumer = await js.consumers.get(stream, {
    deliver_policy: DeliverPolicy.StartSequence,
    opt_start_seq: fromSeq,
  });
  const messages = await consumer.consume();
  const timer = setTimeout(() => void messages.close(), timeoutMs);
  const read: JournaledMessage[] = [];
  try {
    for await (const message of messages) {
      const { kind, id } = parseShardInboxSubject(message.subject);
      let type = "undecodable";
      let payload: Readonly<Record<string, unknown>> = {};
      try {
        const decoded = decodeMessage(message.data, {
          subject: message.subject,
          contentType: message.headers?.get("Content-Type") || undefined,
          defaults: { id: `seq-${message.seq}`, timestampMs: 0 },
          schemas,
        });
        type = decoded.type;
        payload = decoded.payload;
      } catch {
        // Kept as `undecodable`: the breakdown still shows when it was stored.
      }
      read.push({
        seq: message.seq,
        kind,
        id,
        type,
        payload,
        storedAtMs: Number(message.timestampNanos / 1000n) / 1000,
      });
      if (message.seq >= toSeq) break;
    }
  } finally {
    clearTimeout(timer);
    await messages.close().catch(() => undefined);
  }
  if (read.at(-1)?.seq !== toSeq)
    throw new Error(`inbox messages ${fromSeq}–${toSeq} not read within ${timeoutMs} ms`);
  return read;
}
