import { actorAddress, type ActorAddress } from "../address/actor-address.js";
import { formatAddress } from "../address/format-address.js";
import { DecodeError } from "../errors/decode-error.js";
import { PUBLIC_SUBJECT_ROOT } from "./subject-token.js";

/**
 * The public inbox subject of an actor. Publishing here (plain NATS, JSON or
 * msgpack body) delivers a message to the actor.
 *
 * Token layout: `troupe.<kind>.<id>.in` (4 tokens). A session's inbox is
 * `troupe.session.<sessionId>.in`. No stream captures this subject directly: the
 * server's subject mapping (see `inboxSubjectMapping`) rewrites it to the actor's
 * shard inbox subject, which the inbox stream stores.
 *
 * @param address - the receiving actor.
 * @returns e.g. `"troupe.session.demo-1.in"`.
 * @throws {@link InvalidAddressError} when the address breaks the address rules.
 *
 * @example
 * ```ts
 * inboxSubject({ kind: "session", id: "demo-1" }); // "troupe.session.demo-1.in"
 * ```
 */
export function inboxSubject(address: ActorAddress): string {
  formatAddress(address);
  return `${PUBLIC_SUBJECT_ROOT}.${address.kind}.${address.id}.in`;
}

/**
 * Reads the actor address out of a public inbox subject.
 *
 * @param subject - e.g. `"troupe.session.demo-1.in"`.
 * @returns the address, validated.
 * @throws {@link DecodeError} (reason `undecodable`) when the token layout is not
 *   `troupe.<kind>.<id>.in`.
 * @throws {@link InvalidAddressError} when the kind or id breaks the address rules.
 */
export function parseInboxSubject(subject: string): ActorAddress {
  const tokens = String(subject).split(".");
  if (tokens.length !== 4 || tokens[0] !== PUBLIC_SUBJECT_ROOT || tokens[3] !== "in") {
    throw new DecodeError(
      `Not an inbox subject: ${JSON.stringify(String(subject))}; expected troupe.<kind>.<id>.in.`,
      { reason: "undecodable", subject },
    );
  }
  return actorAddress(tokens[1] ?? "", tokens[2] ?? "");
}
