import type { z } from "zod";
import { DecodeError } from "@troupe/addressing";
import {
  builtinMessageSchemas,
  type BuiltinMessageSchemas,
  type MessageSchemas,
} from "../v1/message-schemas.js";
import type { PayloadOf } from "../v1/payload-of.js";
import { validatePayload } from "./validate-envelope.js";

/**
 * Checks a payload a sender is about to publish with the schema the receiving
 * host decodes it with, so a client fails before publishing with the very error
 * the session would answer with (`message.rejected`, code `decode_failed`;
 * docs/decisions/0012).
 *
 * @param type - the message type, e.g. `"run.steer"`.
 * @param payload - the payload to send.
 * @param options - `schemas` (default `builtinMessageSchemas`), `subject` (carried
 *   by the error).
 * @returns the payload as the schema outputs it.
 * @throws {@link DecodeError} with reason `schema_invalid` (zod issues, paths from
 *   the envelope root, e.g. `["payload", "text"]`; an unknown field is an
 *   `unrecognized_keys` issue) or `unknown_type`.
 *
 * @example
 * ```ts
 * validateMessagePayload("run.steer", { text: "" }); // throws DecodeError: payload.text
 * ```
 */
export function validateMessagePayload<
  T extends string,
  S extends MessageSchemas = BuiltinMessageSchemas,
>(
  type: T,
  payload: unknown,
  options: { readonly schemas?: S; readonly subject?: string } = {},
): PayloadOf<S, T> {
  const schemas: MessageSchemas = options.schemas ?? builtinMessageSchemas;
  if (!Object.hasOwn(schemas, type)) {
    throw new DecodeError(`Unknown message type ${JSON.stringify(type)}.`, {
      reason: "unknown_type",
      subject: options.subject,
    });
  }
  return validatePayload(schemas[type] as z.ZodType, payload, {
    type,
    subject: options.subject,
  }) as PayloadOf<S, T>;
}
