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
  return convert(value) ?? null;
}

function convert(value: unknown): JsonValue | undefined {
  if (value === null) return null;
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      return Number.isFinite(value) ? value : null;
    case "bigint":
      return value.toString();
    case "undefined":
    case "function":
    case "symbol":
      return undefined;
  }
  if (value instanceof Uint8Array) {
    return { bytes: value.byteLength, base64: Buffer.from(value).toString("base64") };
  }
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (Array.isArray(value)) return value.map((item) => convert(item) ?? null);
  if (value instanceof Set) return [...value].map((item) => convert(item) ?? null);
  const entries: Iterable<[unknown, unknown]> =
    value instanceof Map ? value.entries() : Object.entries(value);
  const result: Record<string, JsonValue> = {};
  for (const [key, item] of entries) {
    const converted = convert(item);
    if (converted !== undefined) result[String(key)] = converted;
  }
  return result;
}
