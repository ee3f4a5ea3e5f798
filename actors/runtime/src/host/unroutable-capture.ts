import type { JetStreamClient } from "@nats-io/jetstream";
import { headers, type Msg, type NatsConnection, type Subscription } from "@nats-io/transport-node";
import {
  CONTENT_TYPE_HEADER,
  isRoutedPublicSubject,
  unroutableCaptureSubjects,
} from "@troupe/protocol";
import type { Logger } from "pino";
import { type Clock, unroutableDeadLetter } from "@troupe/step/internal";

/**
 * Catches publishes under `troupe.` that match no route (decision
 * 0012) and writes each into the dead-letter stream on
 * `_troupe.deadletter.unroutable` (code `unroutable_subject`, with the original
 * subject, headers and body), where `troupe status` counts them and
 * `troupe dead-letters` lists them.
 *
 * Every host subscribes to {@link unroutableCaptureSubjects} in one queue group,
 * so each such publish is recorded once while at least one host runs. Core NATS
 * keeps nothing: a publish while no host runs, or one the host fails to store
 * (logged at warn), is lost as before. A request (a JetStream publish, `nats
 * req`) gets a JetStream-style error reply naming the problem, instead of the
 * "no responders" it got before.
 */
export class UnroutableCapture {
  readonly #subscriptions: Subscription[];

  private constructor(subscriptions: Subscription[]) {
    this.#subscriptions = subscriptions;
  }

  /**
   * Subscribes.
   *
   * @param nats - the host's connection.
   * @param js - JetStream client that writes the dead letters.
   * @param options - `queue` (queue group, shared by the deployment's hosts),
   *   `logger`, `clock` (the dead letter's `timestampMs`).
   * @returns the running capture; {@link UnroutableCapture.stop} ends it.
   */
  static start(
    nats: NatsConnection,
    js: JetStreamClient,
    options: { readonly queue: string; readonly logger: Logger; readonly clock: Clock },
  ): UnroutableCapture {
    const { queue, logger, clock } = options;
    const capture = (error: Error | null, message: Msg): void => {
      if (error !== null || isRoutedPublicSubject(message.subject)) return;
      const letter = unroutableDeadLetter({
        subject: message.subject,
        data: message.data,
        headers: headersOf(message),
        receivedAtMs: clock.now(),
      });
      if (message.reply !== undefined && message.reply !== "") {
        message.respond(
          new TextEncoder().encode(
            JSON.stringify({
              error: {
                code: 404,
                description: `${letter.record.reason} It was dead-lettered on ${letter.subject}.`,
              },
            }),
          ),
        );
      }
      const letterHeaders = headers();
      letterHeaders.set(CONTENT_TYPE_HEADER, letter.contentType);
      js.publish(letter.subject, letter.body, { headers: letterHeaders }).then(
        () => logger.warn({ subject: message.subject }, "dead-lettered a publish with no route"),
        (publishError: unknown) =>
          logger.warn(
            { subject: message.subject, err: publishError },
            "could not dead-letter a publish with no route; it is lost",
          ),
      );
    };
    const subscriptions = unroutableCaptureSubjects().map((subject) =>
      nats.subscribe(subject, { queue, callback: capture }),
    );
    return new UnroutableCapture(subscriptions);
  }

  /** Ends the subscriptions (dead letters being written still complete). */
  stop(): void {
    for (const subscription of this.#subscriptions) subscription.unsubscribe();
  }
}

function headersOf(message: Msg): Record<string, string[]> {
  const result: Record<string, string[]> = {};
  if (message.headers === undefined) return result;
  for (const key of message.headers.keys()) result[key] = message.headers.values(key);
  return result;
}
