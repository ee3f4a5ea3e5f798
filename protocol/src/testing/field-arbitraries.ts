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
/** Command texts (`commandTextSchema`): short, with a character that is not whitespace. */
export const commandTextArbitrary = fc
  .tuple(text, fc.string({ minLength: 1, maxLength: 60, unit: "grapheme" }), text)
  .map(([before, middle, after]) => `${before}${middle.trim() === "" ? "x" : middle}${after}`);
/** Tool call and question ids (`toolCallIdSchema`): no whitespace or control characters. */
export const toolCallIdArbitrary = fc.oneof(
  fc.stringMatching(/^(call_|toolu_)[A-Za-z0-9]{1,24}$/),
  fc.stringMatching(/^[!-~]{1,40}$/),
  fc
    .string({ minLength: 1, maxLength: 40, unit: "grapheme" })
    .filter((id) => /^[^\s\p{Cc}]+$/u.test(id)),
);
/** Model specs (`provider:model`, no whitespace). */
export const modelSpecArbitrary = fc.stringMatching(/^[a-z]{1,10}:[A-Za-z0-9._-]{1,30}$/);
const tokenCount = fc.nat({ max: 10_000_000 });
/** Token usage. */
export const usage = fc.record({ inputTokens: tokenCount, outputTokens: tokenCount });
/** Wire errors. */
export const wireError = fc.record(
  { code: nonEmptyText, message: text, retryable: fc.boolean(), details: jsonRecordArbitrary },
  { requiredKeys: ["code", "message", "retryable"] },
);
