import { assertActorId } from "../address/actor-address.js";
import { INTERNAL_SUBJECT_ROOT } from "./subject-token.js";

/**
 * Subject of a session's transcript entries (internal).
 *
 * Token layout: `_troupe.transcript.<sessionId>` (3 tokens). Entry `n` is
 * published with the `Nats-Msg-Id` `<sessionId>:transcript:<n>`.
 *
 * @param sessionId - a valid actor id.
 * @returns e.g. `"_troupe.transcript.demo-1"`.
 * @throws InvalidAddressError when `sessionId` is not a valid actor id.
 */
export function transcriptSubject(sessionId: string): string {
  assertActorId(sessionId);
  return `${INTERNAL_SUBJECT_ROOT}.transcript.${sessionId}`;
}
