import type { EventEnvelope } from "../v1/event-envelope.js";
import { encodeBody, type EncodeOptions, type EncodedEnvelope } from "./encode-body.js";

/**
 * Encodes an event envelope to bytes (msgpack unless `codec: "json"`). The
 * envelope is not validated here; subscribers validate on decode.
 *
 * @param envelope - `{ v: 1, id, type, payload, meta: { actor, seq, timestampMs, … } }`;
 *   properties set to `undefined` are dropped.
 * @param options - `codec` (default `"msgpack"`), `maxPayloadBytes` (default 1 MiB),
 *   `subject` (for error messages).
 * @returns `{ bytes, contentType }`; publish `contentType` as the `Content-Type` header.
 * @throws {@link PayloadTooLargeError} when the bytes exceed `maxPayloadBytes`.
 * @throws TypeError when the envelope holds data outside the JSON data model.
 *
 * @example
 * ```ts
 * const { bytes, contentType } = encodeEvent({
 *   v: 1,
 *   id: "session/s1:ev:3",
 *   type: "run.completed",
 *   payload: { runId: "r1", text: "done", usage: { inputTokens: 10, outputTokens: 2 } },
 *   meta: { actor: "session/s1", seq: 3, timestampMs: 1_700_000_000_000 },
 * });
 * ```
 */
export function encodeEvent(envelope: EventEnvelope, options: EncodeOptions = {}): EncodedEnvelope {
  return encodeBody(envelope, options);
}
