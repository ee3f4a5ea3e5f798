import {
  DEFAULT_STORE_READ_TIMEOUT_MS,
  withReadDeadline,
} from "../errors/store-read-timeout-error.js";

/**
 * What {@link lastStoredMessage} needs of a JetStream manager (nats.js's
 * `JetStreamManager` has it; kept structural so this package needs no NATS
 * client).
 */
export interface LastMessageReader<T> {
  readonly streams: {
    getMessage(stream: string, query: { last_by_subj: string }): Promise<T | null>;
  };
}

/**
 * The last message a stream stores on a subject (`last_by_subj`), read with a
 * deadline.
 *
 * @param jsm - a JetStream manager of the deployment's NATS.
 * @param stream - the stream, e.g. `TROUPE_EXECUTIONS`.
 * @param subject - the exact subject.
 * @param timeoutMs - the read's deadline, ms; default `DEFAULT_STORE_READ_TIMEOUT_MS` (30 000).
 * @returns the message, or null when the subject has none.
 * @throws StoreReadTimeoutError (`timeout`, retryable) past the deadline; the JetStream error otherwise.
 * @see https://docs.nats.io/reference/reference-protocols/nats_api_reference#get-message
 */
export function lastStoredMessage<T>(
  jsm: LastMessageReader<T>,
  stream: string,
  subject: string,
  timeoutMs = DEFAULT_STORE_READ_TIMEOUT_MS,
): Promise<T | null> {
  return withReadDeadline(() => jsm.streams.getMessage(stream, { last_by_subj: subject }), {
    store: "stream",
    name: stream,
    key: subject,
    timeoutMs,
  });
}
