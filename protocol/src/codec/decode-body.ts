import { DecodeError } from "../errors/decode-error.js";
import { PayloadTooLargeError } from "../errors/payload-too-large-error.js";
import { codecForContentType, sniffCodec, type CodecName } from "./content-type.js";
import { decodeJson } from "./json-codec.js";
import { decodeMsgpack } from "./msgpack-codec.js";
import { DEFAULT_MAX_PAYLOAD_BYTES, assertPayloadLimit } from "./payload-limit.js";
import { formatWirePath, toWireValue, type WireValue } from "./wire-value.js";

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
 * Turns bytes into a plain object of the shared data model, or fails with a typed
 * error. Never throws anything else for any bytes.
 *
 * @param bytes - the body.
 * @param options - content type, subject, limit.
 * @returns the body as a plain object (fresh, without a `__proto__` key).
 * @throws {@link PayloadTooLargeError} when `bytes` exceeds the limit (checked first).
 * @throws {@link DecodeError} (reason `undecodable`) for an empty body, an unknown
 *   content type, bytes that are not JSON or msgpack, values outside the JSON data
 *   model, or a body that is not an object.
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
  const codec = chooseCodec(options.contentType, bytes, fail);
  let raw: unknown;
  try {
    raw = codec === "json" ? decodeJson(bytes) : decodeMsgpack(bytes);
  } catch (error) {
    return fail(
      `The body is not valid ${codec === "json" ? "JSON" : "msgpack"}: ${reasonOf(error)}`,
      error,
    );
  }
  const body = toWireValue(raw, (problem, path) =>
    fail(
      `The body holds a value outside the JSON data model at ${formatWirePath(path)}: ${problem}.`,
    ),
  );
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    const kind = body === null ? "null" : Array.isArray(body) ? "an array" : `a ${typeof body}`;
    return fail(`The body must be an object (a JSON object or a msgpack map), not ${kind}.`);
  }
  return body;
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
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
