import { assertActorId, assertActorKind, type ActorAddress } from "./actor-address.js";

/**
 * Writes an address as text: `kind/id`. This is the form used in envelopes
 * (`meta.actor`), logs and the CLI.
 *
 * @param address - `{ kind, id }`.
 * @returns `"kind/id"`, e.g. `"session/demo-1"`.
 * @throws {@link InvalidAddressError} when the kind or id breaks the address rules.
 *
 * @example
 * ```ts
 * formatAddress({ kind: "session", id: "demo-1" }); // "session/demo-1"
 * ```
 */
export function formatAddress(address: ActorAddress): string {
  assertActorKind(address.kind);
  assertActorId(address.id);
  return `${address.kind}/${address.id}`;
}
