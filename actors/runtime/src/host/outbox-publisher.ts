import { SpanKind } from "@opentelemetry/api";
import {
  ATTRIBUTES,
  CONTENT_TYPE_HEADER,
  PRIORITY_HEADER,
  SPAN_NAMES,
  TRACEPARENT_HEADER,
  TRACESTATE_HEADER,
} from "@troupe/protocol";
import { headers } from "@nats-io/transport-node";
import type { JetStreamClient } from "@nats-io/jetstream";
import type { OutboxItem } from "@troupe/step";
import { contextOfCarrier, failSpan, hostTracer } from "./trace-context.js";

/**
 * Publishes outbox items to JetStream with their deterministic `Nats-Msg-Id`, so a
 * publish repeated after a crash is dropped by the stream's dedup window.
 *
 * Tracing (docs/decisions/0036): each item's stored trace context (`OutboxItem.trace`,
 * the span of the step that produced it) goes out as the `traceparent` /
 * `tracestate` headers — also when a new owner republishes the outbox after a
 * crash, so the receiving step continues the same trace. Each call is one
 * PRODUCER span `publish outbox`, child of the first item's trace context.
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
    const span = hostTracer().startSpan(
      SPAN_NAMES.publishOutbox,
      {
        kind: SpanKind.PRODUCER,
        attributes: {
          [ATTRIBUTES.messagingSystem]: "nats",
          [ATTRIBUTES.messagingOperationType]: "send",
          [ATTRIBUTES.messagingBatchCount]: items.length,
        },
      },
      contextOfCarrier(items[0]?.trace),
    );
    try {
      const first = items.filter((item) => item.first === true);
      if (first.length > 0) {
        await this.#publishAll(first);
        await this.#publishAll(items.filter((item) => item.first !== true));
        return;
      }
      await this.#publishAll(items);
    } catch (error) {
      failSpan(span, error);
      throw error;
    } finally {
      span.end();
    }
  }

  async #publishAll(items: readonly OutboxItem[]): Promise<void> {
    await Promise.all(
      items.map((item) =>
        this.js.publish(item.subject, item.body, {
          msgID: item.messageId,
          headers: outboxHeaders(item),
        }),
      ),
    );
  }
}

/**
 * The NATS headers of one outbox item: `Content-Type`, `traceparent` /
 * `tracestate` from its stored trace context when it has one (docs/decisions/0036),
 * and `Troupe-Priority` when its scheduling class is not `default` (docs/decisions/0057).
 *
 * @param item - the item.
 * @returns the headers to publish it with.
 */
export function outboxHeaders(item: OutboxItem): ReturnType<typeof headers> {
  const messageHeaders = headers();
  messageHeaders.set(CONTENT_TYPE_HEADER, item.contentType);
  if (item.trace !== undefined) {
    messageHeaders.set(TRACEPARENT_HEADER, item.trace.traceparent);
    if (item.trace.tracestate !== undefined) {
      messageHeaders.set(TRACESTATE_HEADER, item.trace.tracestate);
    }
  }
  if (item.priority !== undefined && item.priority !== "default") {
    messageHeaders.set(PRIORITY_HEADER, item.priority);
  }
  return messageHeaders;
}
