import { PayloadTooLargeError } from "@troupe/addressing";
import { DEFAULT_CODEC, contentTypeFor, type CodecName } from "./content-type.js";
import { encodeJson } from "./json-codec.js";
import { packCheckedMsgpack } from "./msgpack-codec.js";
import { DEFAULT_MAX_PAYLOAD_BYTES, assertPayloadLimit } from "./payload-limit.js";
import { checkedWireValue, formatWirePath } from "./wire-value.js";

/** Options of `encodeMessage` and `encodeEvent`. */
export interface EncodeOptions {
  /** Wire format. Default `"msgpack"`. */
  readonly codec?: CodecName | undefined;
  /** Largest encoded size allowed, in bytes. Default `DEFAULT_MAX_PAYLOAD_BYTES` (1 MiB). */
  readonly maxPayloadBytes?: number | undefined;
  /** Subject the bytes are meant for; only used in error messages. */
  readonly subject?: string | undefined;
}

/** Encoded bytes and the `Content-Type` header value to publish them with. */
export interface EncodedEnvelope {
  readonly bytes: Uint8Array;
  readonly contentType: string;
}

/**
 * Encodes plain data with a codec and checks the payload limit.
 *
 * @param value - an envelope.
 * @param options - codec, limit, subject.
 * @returns the bytes and their content type.
 * @throws TypeError when `value` holds something outside the JSON data model
 *   (`undefined` in an array, `NaN`, a bigint, a `Date`, a class instance, a
 *   `__proto__` key, …); object properties set to `undefined` are dropped.
 * @throws {@link PayloadTooLargeError} when the bytes exceed the limit.
 * @throws RangeError for an unknown codec or an invalid limit.
 */
export function encodeBody(value: unknown, options: EncodeOptions = {}): EncodedEnvelope {
  const codec = options.codec ?? DEFAULT_CODEC;
  const contentType = contentTypeFor(codec);
  const maxBytes = options.maxPayloadBytes ?? DEFAULT_MAX_PAYLOAD_BYTES;
  assertPayloadLimit(maxBytes);
  const data = checkedWireValue(
    value,
    (problem, path) => {
      throw new TypeError(`Cannot encode ${formatWirePath(path)}: ${problem}.`);
    },
    { widenIntegers: codec !== "json" },
  );
  const bytes = codec === "json" ? encodeJson(data) : packCheckedMsgpack(data);
  if (bytes.byteLength > maxBytes) {
    throw new PayloadTooLargeError({
      sizeBytes: bytes.byteLength,
      maxBytes,
      subject: options.subject,
    });
  }
  return { bytes, contentType };
}
