import { CONTENT_TYPE_HEADER } from "@troupe/protocol";
import { headers } from "@nats-io/transport-node";
import type { JetStreamClient } from "@nats-io/jetstream";
import type { OutboxItem } from "../step/actor-record.js";

/**
 * Publishes outbox items to JetStream with their deterministic `Nats-Msg-Id`, so a
 * publish repeated after a crash is dropped by the stream's dedup window.
 */
export class OutboxPublisher {
  constructor(private readonly js: JetStreamClient) {}

  /**
   * Publishes every item and waits for all stream acks (in parallel; items marked
   * `first` — transcript entries — are published and acked before the rest).
   *
   * @param items - items of one outbox.
   * @throws the JetStream error of the first publish that failed.
   */
  async publish(items: readonly OutboxItem[]): Promise<void> {
    if (items.length === 0) return;
    const first = items.filter((item) => item.first === true);
    if (first.length > 0) {
      await this.#publishAll(first);
      await this.#publishAll(items.filter((item) => item.first !== true));
      return;
    }
    await this.#publishAll(items);
  }

  async #publishAll(items: readonly OutboxItem[]): Promise<void> {
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
