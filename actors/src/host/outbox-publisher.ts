import { headers } from "@nats-io/transport-node";
import type { JetStreamClient } from "@nats-io/jetstream";
import type { OutboxItem } from "../step/actor-record.js";

/** Header carrying the codec of a message body (`application/msgpack` or `application/json`). */
export const CONTENT_TYPE_HEADER = "Content-Type";

/**
 * Publishes outbox items to JetStream with their deterministic `Nats-Msg-Id`, so a
 * publish repeated after a crash is dropped by the stream's dedup window.
 */
export class OutboxPublisher {
  constructor(private readonly js: JetStreamClient) {}

  /**
   * Publishes every item and waits for all stream acks (in parallel).
   *
   * @param items - items of one outbox.
   * @throws the JetStream error of the first publish that failed.
   */
  async publish(items: readonly OutboxItem[]): Promise<void> {
    if (items.length === 0) return;
    await Promise.all(
      items.map((item) => {
        const messageHeaders = headers();
        messageHeaders.set(CONTENT_TYPE_HEADER, item.contentType);
        return this.js.publish(item.subject, item.body, {
          msgID: item.messageId,
          headers: messageHeaders,
        });
      }),
    );
  }
}
