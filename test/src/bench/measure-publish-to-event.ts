import type { JetStreamClient } from "@nats-io/jetstream";
import { headers, type NatsConnection } from "@nats-io/transport-node";
import { encodeMessage, eventWildcard, inboxSubject, parseAddress } from "@troupe/protocol";
import { summarizeLatencies, type LatencySummary } from "./latency-summary.js";

/** Options of {@link measurePublishToEvent}. */
export interface PublishToEventOptions {
  /** The actor, e.g. `counter/latency`. */
  readonly actor: string;
  /** Round trips measured. */
  readonly samples: number;
  /** Round trips run first and not measured. */
  readonly warmup: number;
  /** Longest wait for one event, in ms. */
  readonly eventTimeoutMs: number;
}

/**
 * Publish → event latency, one message at a time: publishes a `counter.increment`
 * to the actor's inbox (`js.publish`, with its stream ack) and stops the clock when
 * the actor's `counter.changed` event arrives on a core NATS subscription to
 * `troupe.<kind>.<id>.events.>`. The next message is published only after that.
 *
 * @param nats - connection for the subscription (not the one under test).
 * @param js - JetStream client for the publishes.
 * @param options - actor, sample counts and timeout.
 * @returns the latency summary in ms.
 * @throws Error when an event does not arrive within `eventTimeoutMs`.
 */
export async function measurePublishToEvent(
  nats: NatsConnection,
  js: JetStreamClient,
  options: PublishToEventOptions,
): Promise<LatencySummary> {
  const address = parseAddress(options.actor);
  let onEvent: ((atMs: number) => void) | undefined;
  const subscription = nats.subscribe(eventWildcard(address), {
    callback: (error, message) => {
      if (error === null && message.subject.endsWith(".counter.changed"))
        onEvent?.(performance.now());
    },
  });
  await nats.flush();
  const durationsMs: number[] = [];
  try {
    for (let index = 0; index < options.warmup + options.samples; index += 1) {
      const { bytes, contentType } = encodeMessage({
        v: 1,
        id: `latency-${index}`,
        type: "counter.increment",
        payload: { by: 1 },
        meta: { timestampMs: Date.now() },
      });
      const messageHeaders = headers();
      messageHeaders.set("Content-Type", contentType);
      let timer: NodeJS.Timeout | undefined;
      const arrived = new Promise<number>((resolve, reject) => {
        onEvent = resolve;
        timer = setTimeout(
          () =>
            reject(new Error(`no event from ${options.actor} within ${options.eventTimeoutMs} ms`)),
          options.eventTimeoutMs,
        );
      });
      const startedAt = performance.now();
      try {
        await js.publish(inboxSubject(address), bytes, { headers: messageHeaders });
        const eventAtMs = await arrived;
        if (index >= options.warmup) durationsMs.push(eventAtMs - startedAt);
      } finally {
        clearTimeout(timer);
        onEvent = undefined;
      }
    }
  } finally {
    subscription.unsubscribe();
  }
  return summarizeLatencies(durationsMs);
}
