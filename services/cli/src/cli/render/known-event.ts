import { builtinEventSchemas, type EventEnvelope, type EventType } from "@troupe/protocol";

/** A decoded event of a version 1 type whose payload matched its type's schema. */
export type KnownEvent = EventEnvelope<EventType>;

/**
 * The event with its payload checked against its type's schema
 * (`builtinEventSchemas`), so the renderer can trust the payload's shape.
 *
 * @param event - any envelope, as the stream delivered it.
 * @returns the typed event (payload as the schema outputs it), or `undefined`
 *   for a type version 1 does not define or a payload its schema refuses.
 */
export function knownEvent(event: EventEnvelope): KnownEvent | undefined {
  if (!Object.hasOwn(builtinEventSchemas, event.type)) return undefined;
  const parsed = builtinEventSchemas[event.type as EventType].safeParse(event.payload);
  return parsed.success ? ({ ...event, payload: parsed.data } as KnownEvent) : undefined;
}
