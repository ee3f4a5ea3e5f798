import type { JetStreamClient, JetStreamManager, PubAck } from "@nats-io/jetstream";
import { type MsgHdrs, headers } from "@nats-io/transport-node";
import {
  SpanKind,
  SpanStatusCode,
  type TextMapSetter,
  context,
  propagation,
  trace,
} from "@opentelemetry/api";
import {
  ATTRIBUTES,
  CONTENT_TYPE_HEADER,
  PRIORITY_HEADER,
  SPAN_NAMES,
  TELEMETRY_SCOPE,
  encodeMessage,
} from "@troupe/protocol";
import { isStreamNotFound } from "./is-stream-not-found.js";
import type { SessionMessage } from "./session-message.js";
import { InboxMappingMissingError } from "./inbox-mapping-missing-error.js";
import { StreamsMissingError } from "./streams-missing-error.js";

/** Writes W3C trace context into NATS headers. */
const natsHeaderSetter: TextMapSetter<MsgHdrs> = {
  set: (carrier, key, value) => carrier.set(key, value),
};

/**
 * Publishes built session messages with a JetStream ack: msgpack body,
 * `Content-Type` header, `Nats-Msg-Id` for the inbox stream's dedup window.
 *
 * Tracing (docs/decisions/0036): each publish is a PRODUCER span `send session`, child
 * of the caller's active span if any, whose context goes out as the
 * `traceparent` / `tracestate` headers (nothing is injected when no
 * OpenTelemetry propagator is registered).
 */
export class SessionPublisher {
  /**
   * @param js - JetStream client.
   * @param jsm - JetStream manager (to explain failures).
   * @param inboxStream - inbox stream name, e.g. `TROUPE_INBOX`.
   * @param prefix - deployment prefix, for error messages.
   */
  constructor(
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    private readonly inboxStream: string,
    private readonly prefix: string,
  ) {}

  /**
   * Encodes and publishes one message.
   *
   * @param message - from `buildSessionMessage`.
   * @returns JetStream's ack (`seq` in the inbox stream, `duplicate`).
   * @throws `PayloadTooLargeError` above 1 MiB encoded (nothing is published).
   * @throws {@link StreamsMissingError} when the inbox stream does not exist
   *   (JetStream itself only answers "jetstream is not enabled" then).
   * @throws {@link InboxMappingMissingError} when it exists but the server
   *   does not map the public inbox subject into it.
   * @throws nats.js errors otherwise (e.g. a timeout waiting for the ack).
   */
  async publish(message: SessionMessage): Promise<PubAck> {
    const { bytes, contentType } = encodeMessage(message.envelope, { subject: message.subject });
    // `session/<sessionId>/<envelope id>` (see SessionMessage.msgID)
    const sessionId = message.msgID.split("/")[1];
    const span = trace.getTracer(TELEMETRY_SCOPE).startSpan(SPAN_NAMES.send("session"), {
      kind: SpanKind.PRODUCER,
      attributes: {
        [ATTRIBUTES.messagingSystem]: "nats",
        [ATTRIBUTES.messagingOperationType]: "send",
        [ATTRIBUTES.messagingDestination]: message.subject,
        [ATTRIBUTES.messagingMessageId]: message.msgID,
        [ATTRIBUTES.actorKind]: "session",
        ...(sessionId === undefined ? {} : { [ATTRIBUTES.actorId]: sessionId }),
      },
    });
    const messageHeaders = headers();
    messageHeaders.set(CONTENT_TYPE_HEADER, contentType);
    if (message.priority !== undefined) messageHeaders.set(PRIORITY_HEADER, message.priority);
    propagation.inject(trace.setSpan(context.active(), span), messageHeaders, natsHeaderSetter);
    try {
      return await this.js.publish(message.subject, bytes, {
        headers: messageHeaders,
        msgID: message.msgID,
      });
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: String(error).slice(0, 500) });
      throw await this.explain(error, message.subject);
    } finally {
      span.end();
    }
  }

  private async explain(error: unknown, subject: string): Promise<unknown> {
    try {
      await this.jsm.streams.info(this.inboxStream);
    } catch (infoError) {
      if (isStreamNotFound(infoError)) {
        return new StreamsMissingError(this.inboxStream, this.prefix, error);
      }
      return error;
    }
    // The streams exist, yet JetStream says no stream takes the subject: the
    // server does not map the public inbox subject into the inbox stream.
    const text = error instanceof Error ? error.message : String(error);
    if (/jetstream is not enabled|no responders|no stream/i.test(text)) {
      return new InboxMappingMissingError(subject, error);
    }
    return error;
  }
}
