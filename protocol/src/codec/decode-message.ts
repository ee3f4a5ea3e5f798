import { DecodeError } from "@troupe/addressing";
import { ENVELOPE_VERSION } from "../v1/field-schemas.js";
import { messageEnvelopeSchema, type MessageEnvelope } from "../v1/message-envelope.js";
import {
  builtinMessageSchemas,
  type BuiltinMessageSchemas,
  type MessageSchemas,
} from "../v1/message-schemas.js";
import { decodeBody, type DecodeBodyOptions } from "./decode-body.js";
import { validateEnvelope } from "./validate-envelope.js";

/**
 * What the decoder fills in when the body does not say. The host derives them
 * from the JetStream message, so decoding stays pure and a replay decodes the same
 * bytes to the same envelope.
 */
export interface MessageDefaults {
  /** Message id, e.g. derived from the inbox stream sequence. */
  readonly id: string;
  /** Creation time, Unix ms, e.g. the time the stream stored the message. */
  readonly timestampMs: number;
  /** `meta.actor` when the body has none, as `kind/id`. */
  readonly actor?: string | undefined;
}

/** Options of {@link decodeMessage}. */
export interface DecodeMessageOptions<
  S extends MessageSchemas = BuiltinMessageSchemas,
> extends DecodeBodyOptions {
  /** Accepted message types and their payload schemas. Default `builtinMessageSchemas`. */
  readonly schemas?: S | undefined;
  /** Id, timestamp and actor for bodies that do not carry them. */
  readonly defaults: MessageDefaults;
}

/**
 * Decodes and validates a message from its bytes. Pure: same bytes and options,
 * same result.
 *
 * The body (JSON or msgpack, by `contentType` or sniffed) is either
 * - a full envelope, recognised by its `v` field: `{ v: 1, id, type, payload, meta }`;
 *   a missing `id`, `meta`, `meta.timestampMs` or `meta.actor` is taken from
 *   `defaults`; or
 * - a plain body such as `{"type":"user.message","text":"hello"}`: `type` names
 *   the message, every other top-level field is the payload, and `id` and `meta`
 *   come from `defaults`.
 *
 * The envelope is strict (an unknown top-level field of a full envelope is
 * refused by name), and the payload is validated against `schemas[type]`: the
 * public commands' schemas refuse unknown fields by name too (so an `id` in a
 * plain body is refused, not dropped), internal messages' schemas
 * drop them.
 *
 * @param bytes - the message body.
 * @param options - `defaults` (required), `contentType`, `subject`, `schemas`
 *   (default `builtinMessageSchemas`), `maxPayloadBytes` (default 1 MiB).
 * @returns the validated envelope.
 * @throws {@link PayloadTooLargeError} when `bytes` exceeds the limit.
 * @throws {@link DecodeError} with reason `undecodable`, `unsupported_version`,
 *   `schema_invalid` (with zod issues) or `unknown_type`, carrying `subject`. No
 *   other error is thrown for any bytes.
 * @throws RangeError when `options.maxPayloadBytes` is not a whole number from 1.
 *
 * @example
 * ```ts
 * const message = decodeMessage(new TextEncoder().encode('{"type":"user.message","text":"hello"}'), {
 *   subject: "troupe.session.demo-1.in",
 *   defaults: { id: "session/demo-1:in:1", timestampMs: 1_700_000_000_000 },
 * });
 * if (message.type === "user.message") console.log(message.payload.text); // "hello"
 * ```
 */
export function decodeMessage<S extends MessageSchemas = BuiltinMessageSchemas>(
  bytes: Uint8Array,
  options: DecodeMessageOptions<S>,
): MessageEnvelope<keyof S & string, S> {
  const body = decodeBody(bytes, options);
  const { defaults, subject } = options;
  const defaultMeta = {
    timestampMs: defaults.timestampMs,
    ...(defaults.actor === undefined ? {} : { actor: defaults.actor }),
  };
  let candidate: Record<string, unknown>;
  const plainBody = !Object.hasOwn(body, "v");
  if (plainBody) {
    const { type, ...payload } = body;
    candidate = { v: ENVELOPE_VERSION, id: defaults.id, type, payload, meta: defaultMeta };
  } else if (body.v !== ENVELOPE_VERSION) {
    throw new DecodeError(
      `Unsupported envelope version ${JSON.stringify(body.v)}; this decoder reads v: ${ENVELOPE_VERSION}.`,
      { reason: "unsupported_version", subject },
    );
  } else {
    const { meta } = body;
    candidate = {
      ...body,
      id: body.id ?? defaults.id,
      meta:
        meta === undefined
          ? defaultMeta
          : typeof meta === "object" && meta !== null && !Array.isArray(meta)
            ? { ...defaultMeta, ...meta }
            : meta,
    };
  }
  return validateEnvelope(candidate, {
    envelopeSchema: messageEnvelopeSchema,
    schemas: options.schemas ?? builtinMessageSchemas,
    noun: "message",
    subject,
    plainBody,
  });
}
