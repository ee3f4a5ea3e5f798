import { JetStreamApiCodes, JetStreamApiError } from "@nats-io/jetstream";

/**
 * Whether a JetStream error says the stream does not exist (API error code
 * 10059, `StreamNotFoundError` in nats.js 3).
 *
 * @param error - anything caught from a JetStream call.
 * @returns `true` for "stream not found".
 */
export function isStreamNotFound(error: unknown): boolean {
  if (error instanceof JetStreamApiError) return error.code === JetStreamApiCodes.StreamNotFound;
  return error instanceof Error && error.name === "StreamNotFoundError";
}
