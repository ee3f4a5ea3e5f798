import type { MessageEnvelope } from "../v1/message-envelope.js";
import { encodeBody, type EncodeOptions, type EncodedEnvelope } from "./encode-body.js";

/**
 * Encodes a message envelope to bytes (msgpack unless `codec: "json"`). The
 * envelope is not validated here; receivers validate on decode.
 *
 * @param envelope - `{ v: 1, id, type, payload, meta }`; properties set to
 *   `undefined` are dropped.
 * @param options - `codec` (default `"msgpack"`), `maxPayloadBytes` (default 1 MiB),
 *   `subject` (for error messages).
 * @returns `{ bytes, contentType }`; publish `contentType` as the `Content-Type` header.
 * @throws {@link PayloadTooLargeError} when the bytes exceed `maxPayloadBytes`.
 * @throws TypeError when the envelope holds data outside the JSON data model.
 *
 * @example
 * ```ts
 * const { bytes, contentType } = encodeMessage({
 *   v: 1,
 *   id: "m1",
 *   type: "user.message",
 *   payload: { text: "hello" },
 *   meta: { timestampMs: Date.now() },
 * });
 * await js.publish(inboxSubject(session), bytes, { headers: withContentType(contentType) });
 * ```
 */
export function encodeMessage(
  envelope: MessageEnvelope,
  options: EncodeOptions = {},
): EncodedEnvelope {
  return encodeBody(envelope, options);
}
