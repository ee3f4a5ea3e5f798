import { z } from "zod";
import { TroupeError } from "@troupe/addressing";

/**
 * Validates the input of an effect against its schema, for the effect's
 * handler: a machine and its handler share the schema, so a failure here is a
 * bug on one side (or a request stored by an incompatible machine version),
 * never the user's input.
 *
 * @param effect - the effect's name (`model.call`, …), for the message.
 * @param schema - the effect's input schema (`modelCallInputSchema`, …).
 * @param input - the input as the host hands it to the handler.
 * @returns the parsed input (defaults filled in, `null` fields absent).
 * @throws TroupeError `internal` (not retryable), its message naming the effect
 *   and the fields, `details.issues` the zod issues as `{ path, message }`.
 * @example
 * const input = parseEffectInput(MODEL_CALL_EFFECT, modelCallInputSchema, rawInput);
 */
export function parseEffectInput<Schema extends z.ZodType>(
  effect: string,
  schema: Schema,
  input: unknown,
): z.infer<Schema> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw new TroupeError("internal", `invalid ${effect} input: ${z.prettifyError(parsed.error)}`, {
    details: {
      issues: parsed.error.issues.map((issue) => ({
        path: issue.path.map(String),
        message: issue.message,
      })),
    },
  });
}
