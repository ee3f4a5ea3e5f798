import type { JetStreamClient } from "@nats-io/jetstream";
import { headers } from "@nats-io/transport-node";
import { encodeMessage, inboxSubject, parseAddress } from "@troupe/protocol";

/**
 * Publishes one envelope to an actor's inbox through JetStream (the subject the
 * server maps to its shard), as a test's client would.
 *
 * @param js - JetStream client.
 * @param actor - `kind/id`.
 * @param type - the message type, e.g. `counter.increment`.
 * @param payload - its payload.
 * @param messageId - envelope id and `Nats-Msg-Id` (dedup); default a fresh id, no dedup header.
 */
export async function sendToInbox(
  js: JetStreamClient,
  actor: string,
  type: string,
  payload: Record<string, unknown>,
  messageId?: string,
): Promise<void> {
  const { bytes, contentType } = encodeMessage({
    v: 1,
    id: messageId ?? `test-${crypto.randomUUID()}`,
    type,
    payload,
    meta: { timestampMs: Date.now() },
  });
  const messageHeaders = headers();
  messageHeaders.set("Content-Type", contentType);
  await js.publish(inboxSubject(parseAddress(actor)), bytes, {
    headers: messageHeaders,
    ...(messageId === undefined ? {} : { msgID: messageId }),
  });
}
