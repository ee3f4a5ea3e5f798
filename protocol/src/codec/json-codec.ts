const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder("utf-8", { fatal: true });

/**
 * Writes plain data as UTF-8 JSON.
 *
 * @param value - plain data (see `WireValue`).
 * @returns the JSON text's bytes.
 */
export function encodeJson(value: unknown): Uint8Array {
  return utf8Encoder.encode(JSON.stringify(value));
}

/**
 * Reads UTF-8 JSON (a leading byte order mark is skipped).
 *
 * @param bytes - the body.
 * @returns whatever `JSON.parse` returns.
 * @throws TypeError for bytes that are not UTF-8, SyntaxError for text that is not JSON.
 */
export function decodeJson(bytes: Uint8Array): unknown {
  return JSON.parse(utf8Decoder.decode(bytes));
}
