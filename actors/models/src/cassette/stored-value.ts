/**
 * JSON for what a cassette keeps: stream parts and results hold `Date`s
 * (`response-metadata.timestamp`) and bytes (`file` parts), which JSON does
 * not. `toStored` writes them as `{ "$date": iso }` and `{ "$bytes": base64 }`;
 * `fromStored` reads them back. Everything else is plain JSON; `undefined`
 * fields are dropped, as `JSON.stringify` does.
 */
export function toStored(value: unknown): unknown {
  if (value instanceof Date) return { $date: value.toISOString() };
  if (value instanceof Uint8Array) return { $bytes: Buffer.from(value).toString("base64") };
  if (value instanceof URL) return value.href;
  if (Array.isArray(value)) return value.map(toStored);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(value)) {
      if (field !== undefined && typeof field !== "function") out[key] = toStored(field);
    }
    return out;
  }
  return value;
}

/** The inverse of {@link toStored}. */
export function fromStored(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(fromStored);
  if (value !== null && typeof value === "object") {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record);
    if (keys.length === 1 && typeof record.$date === "string") return new Date(record.$date);
    if (keys.length === 1 && typeof record.$bytes === "string") {
      return new Uint8Array(Buffer.from(record.$bytes, "base64"));
    }
    return Object.fromEntries(keys.map((key) => [key, fromStored(record[key])]));
  }
  return value;
}

/**
 * JSON with the object keys sorted at every level: one text per value, for
 * hashing. Give it a stored value ({@link toStored}): dates and bytes as written.
 */
export function canonicalJson(value: unknown): string {
  const sorted = (item: unknown): unknown => {
    if (Array.isArray(item)) return item.map(sorted);
    if (item !== null && typeof item === "object") {
      const record = item as Record<string, unknown>;
      return Object.fromEntries(
        Object.keys(record)
          .sort()
          .map((key) => [key, sorted(record[key])]),
      );
    }
    return item;
  };
  return JSON.stringify(sorted(value));
}
