import { z } from "zod";

/**
 * Reads a `null` field as an absent one: drops the fields of a plain object
 * whose value is `null` or `undefined` before `schema` parses it. Effect inputs
 * and outputs cross msgpack and JSON, where an absent optional field may come
 * back as `null`; after this, `.optional()` and `.default()` treat both alike,
 * and a parse result never holds a field whose value is `undefined`.
 *
 * @param schema - the object schema to apply after dropping the fields.
 * @returns a schema with the same output type (its input type is `unknown`).
 * @example
 * nullAsAbsent(z.object({ agent: z.string().optional() })).parse({ agent: null }); // {}
 */
export function nullAsAbsent<Schema extends z.ZodType>(schema: Schema) {
  return z.preprocess(withoutNullFields, schema);
}

/** The object without its `null` / `undefined` fields; anything else unchanged. */
function withoutNullFields(value: unknown): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(
    Object.entries(value).filter(([, field]) => field !== null && field !== undefined),
  );
}
