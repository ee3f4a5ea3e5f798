import type { TroupeClient } from "@troupe/client";
import { GatewayError } from "../http/gateway-error.js";
import { collectSessionActors, type SessionActorEntry } from "./session-actors.js";

/** How long reading a session's events for its actors may take: 10 000 ms. */
export const READ_ACTORS_TIMEOUT_MS = 10_000;

/**
 * The actors of a session (`collectSessionActors`) from its stored events,
 * read from the first to the last stored now.
 *
 * @param client - the gateway's client.
 * @param sessionId - a valid session id.
 * @returns the actors in order of first sight.
 * @throws GatewayError 404 `session_not_found` when the session has no event;
 *   504 `timeout` when the events are not read within {@link READ_ACTORS_TIMEOUT_MS}.
 */
export async function readSessionActors(
  client: TroupeClient,
  sessionId: string,
): Promise<SessionActorEntry[]> {
  const stored = await client.storedEventCount(sessionId);
  if (stored === 0) {
    throw new GatewayError(404, "session_not_found", `Session "${sessionId}" has no event.`);
  }
  const signal = AbortSignal.timeout(READ_ACTORS_TIMEOUT_MS);
  const sightings: Array<
    Parameters<typeof collectSessionActors>[1] extends Iterable<infer T> ? T : never
  > = [];
  let durable = 0;
  for await (const arrival of client.events(sessionId, { fromSequence: 1, signal })) {
    sightings.push(arrival);
    if (arrival.deltaSequence !== undefined || arrival.event.meta.transient === true) continue;
    durable += 1;
    if (durable >= stored || arrival.pending === 0) break;
  }
  if (durable < stored && signal.aborted) {
    throw new GatewayError(
      504,
      "timeout",
      `Reading the events of session "${sessionId}" took too long.`,
    );
  }
  return collectSessionActors(sessionId, sightings);
}
