/**
 * The default largest encoded message, in bytes: 1 MiB (1 048 576 bytes), the
 * default `max_payload` of nats-server
 * (https://docs.nats.io/running-a-nats-service/configuration#limits). Keep the
 * server's `max_payload` at least this large.
 */
export const DEFAULT_MAX_PAYLOAD_BYTES = 1_048_576;

/**
 * Throws unless `maxPayloadBytes` is a whole number of bytes, 1 or more.
 *
 * @param maxPayloadBytes - a payload limit from options.
 * @throws RangeError naming the allowed values.
 */
export function assertPayloadLimit(maxPayloadBytes: number): void {
  if (!Number.isSafeInteger(maxPayloadBytes) || maxPayloadBytes < 1) {
    throw new RangeError(
      `Invalid maxPayloadBytes ${String(maxPayloadBytes)}: expected a whole number of bytes, 1 or more.`,
    );
  }
}
