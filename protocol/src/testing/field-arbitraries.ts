import fc from "fast-check";
import { jsonRecordArbitrary } from "./json-data-arbitrary.js";

/** Generic ids: 1 to 40 characters, any text. */
export const identifierArbitrary = fc.string({ minLength: 1, maxLength: 40 });
/** Actor ids (and other token-safe ids). */
export const actorIdArbitrary = fc.stringMatching(/^[A-Za-z0-9_-]{1,24}$/);
/** `kind/id` texts with common kinds. */
export const addressTextArbitrary = fc
  .tuple(fc.constantFrom("session", "run", "tool", "subagent", "custom_kind"), actorIdArbitrary)
  .map(([kind, id]) => `${kind}/${id}`);
/** Tool effect classes. */
export const effectClassArbitrary = fc.constantFrom(
  "read",
  "idempotent_write",
  "non_idempotent_write",
  "unclassified",
);
/** Unix ms timestamps. */
export const timestampMsArbitrary = fc.integer({ min: 0, max: 4_102_444_800_000 });

/** Any short text. */
export const text = fc.string({ maxLength: 60 });
/** Short text, at least one character. */
export const nonEmptyText = fc.string({ minLength: 1, maxLength: 60 });
const tokenCount = fc.nat({ max: 10_000_000 });
/** Token usage. */
export const usage = fc.record({ inputTokens: tokenCount, outputTokens: tokenCount });
/** Wire errors. */
export const wireError = fc.record(
  { code: nonEmptyText, message: text, retryable: fc.boolean(), details: jsonRecordArbitrary },
  { requiredKeys: ["code", "message", "retryable"] },
);
