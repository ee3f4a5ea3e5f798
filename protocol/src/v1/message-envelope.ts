import { z } from "zod";
import { actorAddressTextSchema } from "@troupe/addressing";
import { ENVELOPE_VERSION, identifierSchema, timestampMsSchema } from "./field-schemas.js";
import type { KnownMessageSchemas, MessageSchemas } from "./message-schemas.js";
import type { PayloadOf } from "./payload-of.js";

/**
 * Metadata of a message.
 *
 * Shape: `{ actor?: "kind/id", causationId?: string, correlationId?: string, timestampMs: number }`.
 * - `actor`: the actor that sent the message; absent when the sender is not an
 *   actor (a user, the CLI). Decoders fill it from `defaults.actor` when absent.
 * - `causationId`: id of the message or event that caused this one.
 * - `correlationId`: id shared by everything that belongs to one conversation or
 *   request, usually the id of the first message.
 * - `timestampMs`: when the message was created, Unix ms.
 *
 * Strict: any other field is refused by name (docs/decisions/0012), since a field a
 * publisher set and the decoder dropped would be lost silently.
 */
export const messageMetaSchema = z.strictObject({
  actor: actorAddressTextSchema.optional(),
  causationId: identifierSchema.optional(),
  correlationId: identifierSchema.optional(),
  timestampMs: timestampMsSchema,
});
/** See {@link messageMetaSchema}. */
export type MessageMeta = z.infer<typeof messageMetaSchema>;

/**
 * A message envelope, version 1, with the payload not yet checked against its
 * type's schema (decoders do that with a `MessageSchemas` registry).
 *
 * Shape: `{ v: 1, id: string, type: string, payload: unknown, meta: MessageMeta }`.
 * `id` identifies the message for idempotency and causation (1 to 256 characters).
 * Strict, like {@link messageMetaSchema}: a top-level field other than these five
 * is refused by name (`unrecognized_keys`), never dropped. Payloads
 * are checked by their own schemas: the public commands' are strict too, the
 * internal messages' (host to host) drop unknown fields (decision 0012).
 */
export const messageEnvelopeSchema = z.strictObject({
  v: z.literal(ENVELOPE_VERSION),
  id: identifierSchema,
  type: z.string().min(1),
  payload: z.unknown(),
  meta: messageMetaSchema,
});

/**
 * A decoded message of type `T`, its payload typed from registry `S`.
 *
 * `MessageEnvelope` alone has `type: string` and `payload: unknown`;
 * `MessageEnvelope<"user.message">` has a `UserMessage` payload; a union of
 * types gives a union of envelopes that narrows on `type`.
 *
 * @example
 * ```ts
 * const message: MessageEnvelope<"user.message"> = {
 *   v: 1,
 *   id: "m1",
 *   type: "user.message",
 *   payload: { text: "hello" },
 *   meta: { timestampMs: 1_700_000_000_000 },
 * };
 * ```
 */
export type MessageEnvelope<
  T extends string = string,
  S extends MessageSchemas = KnownMessageSchemas,
> = T extends string
  ? { v: 1; id: string; type: T; payload: PayloadOf<S, T>; meta: MessageMeta }
  : never;
