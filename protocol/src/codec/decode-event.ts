import { DecodeError } from "@troupe/addressing";
import { eventEnvelopeSchema, type EventEnvelope } from "../v1/event-envelope.js";
import {
  builtinEventSchemas,
  type BuiltinEventSchemas,
  type EventSchemas,
} from "../v1/event-schemas.js";
import { ENVELOPE_VERSION } from "../v1/field-schemas.js";
import { decodeBody, type DecodeBodyOptions } from "./decode-body.js";
import { validateEnvelope } from "./validate-envelope.js";

/** Options of {@link decodeEvent}. */
export interface DecodeEventOptions<
  S extends EventSchemas = BuiltinEventSchemas,
> extends DecodeBodyOptions {
  /** Accepted event types and their payload schemas. Default `builtinEventSchemas`. */
  readonly schemas?: S | undefined;
}

/**
 * Decodes and validates an event from its bytes. Pure: same bytes and options,
 * same result. Events are always full envelopes (`{ v: 1, id, type, payload, meta }`);
 * unknown payload fields are dropped.
 *
 * @param bytes - the event body.
 * @param options - `contentType`, `subject`, `schemas` (default
 *   `builtinEventSchemas`), `maxPayloadBytes` (default 1 MiB).
 * @returns the validated envelope.
 * @throws {@link PayloadTooLargeError} when `bytes` exceeds the limit.
 * @throws {@link DecodeError} with reason `undecodable`, `unsupported_version`,
 *   `schema_invalid` (with zod issues) or `unknown_type`, carrying `subject`. No
 *   other error is thrown for any bytes.
 * @throws RangeError when `options.maxPayloadBytes` is not a whole number from 1.
 *
 * @example
 * ```ts
 * for await (const message of subscription) {
 *   const event = decodeEvent(message.data, {
 *     subject: message.subject,
 *     contentType: message.headers?.get("Content-Type"),
 *   });
 *   if (event.type === "run.delta") process.stdout.write(event.payload.text);
 * }
 * ```
 */
export function decodeEvent<S extends EventSchemas = BuiltinEventSchemas>(
  bytes: Uint8Array,
  options: DecodeEventOptions<S> = {},
): EventEnvelope<keyof S & string, S> {
  const body = decodeBody(bytes, options);
  if (Object.hasOwn(body, "v") && body.v !== ENVELOPE_VERSION) {
    throw new DecodeError(
      `Unsupported envelope version ${JSON.stringify(body.v)}; this decoder reads v: ${ENVELOPE_VERSION}.`,
      { reason: "unsupported_version", subject: options.subject },
    );
  }
  return validateEnvelope(body, {
    envelopeSchema: eventEnvelopeSchema,
    schemas: options.schemas ?? builtinEventSchemas,
    noun: "event",
    subject: options.subject,
  });
}
