import { DecodeError, PayloadTooLargeError } from "@troupe/addressing";
import { codecForContentType, sniffCodec, type CodecName } from "./content-type.js";
import { describeLeadingBytes } from "./describe-bytes.js";
import { decodeJson } from "./json-codec.js";
import { decodeMsgpack } from "./msgpack-codec.js";
import { DEFAULT_MAX_PAYLOAD_BYTES, assertPayloadLimit } from "./payload-limit.js";
import { checkedWireValue, formatWirePath, type WireValue } from "./wire-value.js";

/** Options every decoder takes. */
export interface DecodeBodyOptions {
  /** The `Content-Type` header, when the message had one; absent means sniff (`sniffCodec`). */
  readonly contentType?: string | undefined;
  /** Subject the bytes arrived on; carried by errors. */
  readonly subject?: string | undefined;
  /** Largest body accepted, in bytes. Default `DEFAULT_MAX_PAYLOAD_BYTES` (1 MiB). */
  readonly maxPayloadBytes?: number | undefined;
}

/**
 * What a body must be, for error messages: the rule of `sniffCodec` and the
 * `Content-Type` header in one sentence.
 */
export const EXPECTED_BODY =
  "Expected a msgpack envelope (Content-Type: application/msgpack, or no header) or a JSON " +
  "object (Content-Type: application/json, or no header and a first non-blank byte '{'), " +
  'e.g. {"type":"user.message","text":"hi"}';

/**
 * Turns bytes into a plain object of the shared data model, or fails with a typed
 * error. Never throws anything else for any bytes.
 *
 * @param bytes - the body.
 * @param options - content type, subject, limit.
 * @returns the body as a plain object (fresh, without a `__proto__` key).
 * @throws {@link PayloadTooLargeError} when `bytes` exceeds the limit (checked first).
 * @throws {@link DecodeError} (reason `undecodable`) for an empty body, an unknown
 *   content type, bytes that are not JSON or msgpack, values outside the JSON data
 *   model, or a body that is not an object. For bytes that are not JSON or msgpack
 *   and a body that is not an object, the message says what was expected
 *   ({@link EXPECTED_BODY}) and shows the first 32 bytes in hex and as text.
 * @throws RangeError when `options.maxPayloadBytes` is not a whole number from 1.
 */
export function decodeBody(
  bytes: Uint8Array,
  options: DecodeBodyOptions,
): Record<string, WireValue> {
  const { subject } = options;
  const maxBytes = options.maxPayloadBytes ?? DEFAULT_MAX_PAYLOAD_BYTES;
  assertPayloadLimit(maxBytes);
  const fail = (message: string, cause?: unknown): never => {
    throw new DecodeError(message, { reason: "undecodable", subject, cause });
  };
  if (!(bytes instanceof Uint8Array)) return fail("The body is not a Uint8Array.");
  if (bytes.byteLength > maxBytes) {
    throw new PayloadTooLargeError({ sizeBytes: bytes.byteLength, maxBytes, subject });
  }
  if (bytes.byteLength === 0) return fail("The body is empty.");
  const sniffed = typeof options.contentType !== "string" || options.contentType.trim() === "";
  const codec = chooseCodec(options.contentType, bytes, fail);
  let raw: unknown;
  try {
    raw = codec === "json" ? decodeJson(bytes) : decodeMsgpack(bytes);
  } catch (error) {
    const what = codec === "json" ? "JSON" : "msgpack";
    const how = sniffed ? `, read as ${what} since it has no Content-Type header` : "";
    return fail(
      `The body is not valid ${what}${how} (${reasonOf(error)}). ${EXPECTED_BODY}; ` +
        `got ${describeLeadingBytes(bytes)}.`,
      error,
    );
  }
  const body = checkedWireValue(raw, (problem, path) =>
    fail(
      `The body holds a value outside the JSON data model at ${formatWirePath(path)}: ${problem}.`,
    ),
  );
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    const kind = body === null ? "null" : Array.isArray(body) ? "an array" : `a ${typeof body}`;
    return fail(
      `The body must be an object (a JSON object or a msgpack map), not ${kind}. ` +
        `${EXPECTED_BODY}; got ${describeLeadingBytes(bytes)}.`,
    );
  }
  return body as Record<string, WireValue>;
}

function chooseCodec(
  contentType: string | undefined,
  bytes: Uint8Array,
  fail: (message: string) => never,
): CodecName {
  if (typeof contentType !== "string" || contentType.trim() === "") return sniffCodec(bytes);
  return (
    codecForContentType(contentType) ??
    fail(
      `Unsupported content type ${JSON.stringify(contentType.slice(0, 100))}; ` +
        `expected application/msgpack or application/json.`,
    )
  );
}

function reasonOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const line = text.replace(/\s+/gu, " ").replace(/\.$/u, "");
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}
