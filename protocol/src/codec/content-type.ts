/**
 * The wire formats: `msgpack` (the default; compact, what hosts publish) and
 * `json` (what plain publishers such as `nats pub` send).
 */
export type CodecName = "msgpack" | "json";

/** The codec encoders use when none is named. */
export const DEFAULT_CODEC: CodecName = "msgpack";

/** `Content-Type` header value of msgpack bodies. */
export const MSGPACK_CONTENT_TYPE = "application/msgpack";

/** `Content-Type` header value of JSON bodies. */
export const JSON_CONTENT_TYPE = "application/json";

/** The NATS header that names a body's codec. */
export const CONTENT_TYPE_HEADER = "Content-Type";

const codecsByMediaType: Readonly<Record<string, CodecName>> = {
  "application/msgpack": "msgpack",
  "application/x-msgpack": "msgpack",
  "application/vnd.msgpack": "msgpack",
  "application/json": "json",
};

/**
 * The `Content-Type` header value of a codec.
 *
 * @param codec - `"msgpack"` or `"json"`.
 * @returns `"application/msgpack"` or `"application/json"`.
 * @throws RangeError for any other codec name.
 *
 * @example
 * ```ts
 * headers.set("Content-Type", contentTypeFor("json")); // "application/json"
 * ```
 */
export function contentTypeFor(codec: CodecName): string {
  if (codec === "msgpack") return MSGPACK_CONTENT_TYPE;
  if (codec === "json") return JSON_CONTENT_TYPE;
  throw new RangeError(
    `Unknown codec ${JSON.stringify(String(codec))}; expected "msgpack" or "json".`,
  );
}

/**
 * The codec a `Content-Type` header value names. Case and parameters are ignored
 * (`Application/JSON; charset=utf-8` is JSON); `application/x-msgpack` and
 * `application/vnd.msgpack` are read as msgpack too.
 *
 * @param contentType - the header value.
 * @returns the codec, or `undefined` when the header names neither.
 */
export function codecForContentType(contentType: string): CodecName | undefined {
  const mediaType = contentType.split(";", 1)[0]?.trim().toLowerCase() ?? "";
  return Object.hasOwn(codecsByMediaType, mediaType) ? codecsByMediaType[mediaType] : undefined;
}

/**
 * Guesses the codec of a body that came without a `Content-Type` header: JSON when
 * the first byte that is not whitespace (or a UTF-8 byte order mark) is `{`,
 * msgpack otherwise. A msgpack map never starts with `{` (0x7b is the integer 123
 * in msgpack), so envelopes are never misread.
 *
 * @param bytes - the body.
 * @returns `"json"` or `"msgpack"`.
 */
export function sniffCodec(bytes: Uint8Array): CodecName {
  let index = 0;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) index = 3;
  while (index < bytes.length) {
    const byte = bytes[index];
    if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) {
      return byte === 0x7b ? "json" : "msgpack";
    }
    index += 1;
  }
  return "msgpack";
}
