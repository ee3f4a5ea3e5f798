import { toJsonData } from "@troupe/protocol";

/** A value `JSON.stringify` writes without loss or throwing. */
export type JsonValue =
  null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/**
 * Turns data decoded from a stored record (msgpack) into plain JSON, so that an
 * admin view can be printed with `JSON.stringify` as it is.
 *
 * Conversions: `Uint8Array`/`Buffer` → `{ bytes: <length>, base64 }`; `bigint` →
 * decimal string; `Map` → object (keys as strings); `Set` → array; `Date` → ISO
 * string; non-finite numbers and `undefined` inside arrays → `null`; `undefined`
 * properties, functions and symbols are dropped (as `JSON.stringify` would).
 *
 * @param value - decoded data of any shape.
 * @returns the JSON equivalent; `null` for `undefined` at the top.
 */
export function toJsonValue(value: unknown): JsonValue {
  return toJsonData(value, (bytes) => ({
    bytes: bytes.byteLength,
    base64: Buffer.from(bytes).toString("base64"),
  }));
}
