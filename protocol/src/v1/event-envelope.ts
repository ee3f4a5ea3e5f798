import { z } from "zod";
import { actorAddressTextSchema, eventTypeSchema } from "@troupe/addressing";
import type { BuiltinEventSchemas, EventSchemas } from "./event-schemas.js";
import { ENVELOPE_VERSION, identifierSchema, timestampMsSchema } from "./field-schemas.js";
import type { PayloadOf } from "./payload-of.js";

/**
 * Metadata of an event.
 *
 * Shape: `{ actor: "kind/id", seq: number, timestampMs: number, causationId?: string, correlationId?: string, transient?: true }`.
 * - `actor`: the actor that emitted the event.
 * - `seq`: the event's position among that actor's events: starts at 1, grows by
 *   1, no gaps, so a subscriber sees a gap as a missed event. Transient events
 *   have `seq` 0 and are outside that sequence.
 * - `transient`: set on events that are not part of the actor's state history
 *   (the streamed `run.delta` text of a model call): published while an effect
 *   runs, never journaled, possibly repeated with a higher attempt number after a
 *   crash; stored only in the deltas stream (`<P>_DELTAS`, default 1 h), not in
 *   the events stream (docs/decisions/0014); and the verdict (`command.settled`,
 *   `message.rejected`) on a command to an actor that does not exist, which is
 *   answered without creating it.
 * - `timestampMs`: when the event was emitted, Unix ms (deterministic: the stored
 *   time of the inbox message that caused it).
 * - `causationId`: id of the message that caused the event.
 * - `correlationId`: id shared by everything of one conversation or request.
 */
export const eventMetaSchema = z
  .object({
    actor: actorAddressTextSchema,
    seq: z.number().int().min(0),
    timestampMs: timestampMsSchema,
    causationId: identifierSchema.optional(),
    correlationId: identifierSchema.optional(),
    transient: z.literal(true).optional(),
  })
  .refine((meta) => meta.seq >= 1 || meta.transient === true, {
    message: "seq starts at 1 (only transient events carry seq 0)",
    path: ["seq"],
  });
/** See {@link eventMetaSchema}. */
export type EventMeta = z.infer<typeof eventMetaSchema>;

/**
 * An event envelope, version 1, with the payload not yet checked against its
 * type's schema (decoders do that with an `EventSchemas` registry).
 *
 * Shape: `{ v: 1, id: string, type: string (EVENT_TYPE_PATTERN), payload: unknown, meta: EventMeta }`.
 * `id` is deterministic (the host derives it from the actor and `seq`) and is also
 * the JetStream `Nats-Msg-Id`, so a re-published event is stored once.
 */
export const eventEnvelopeSchema = z.object({
  v: z.literal(ENVELOPE_VERSION),
  id: identifierSchema,
  type: eventTypeSchema,
  payload: z.unknown(),
  meta: eventMetaSchema,
});

/**
 * A decoded event of type `T`, its payload typed from registry `S`.
 *
 * `EventEnvelope` alone has `type: string` and `payload: unknown`;
 * `EventEnvelope<"run.completed">` has a `RunCompleted` payload; a union of types
 * gives a union of envelopes that narrows on `type`.
 *
 * @example
 * ```ts
 * const event = decodeEvent(bytes);
 * if (event.type === "run.completed") console.log(event.payload.usage.outputTokens);
 * ```
 */
export type EventEnvelope<
  T extends string = string,
  S extends EventSchemas = BuiltinEventSchemas,
> = T extends string
  ? { v: 1; id: string; type: T; payload: PayloadOf<S, T>; meta: EventMeta }
  : never;
