import { z } from "zod";
import { InvalidAddressError } from "../errors/invalid-address-error.js";
import { actorAddress, type ActorAddress } from "./actor-address.js";
import { isValidActorId } from "./actor-id.js";
import { isValidActorKind } from "./actor-kind.js";

/**
 * Reads a `kind/id` address.
 *
 * @param text - e.g. `"session/demo-1"`; exactly one `/`.
 * @returns `{ kind, id }`.
 * @throws {@link InvalidAddressError} when there is not exactly one `/` (field
 *   `"address"`) or the kind or id breaks the address rules.
 *
 * @example
 * ```ts
 * parseAddress("session/demo-1"); // { kind: "session", id: "demo-1" }
 * parseAddress("demo-1"); // throws InvalidAddressError
 * ```
 */
export function parseAddress(text: string): ActorAddress {
  const parts = typeof text === "string" ? text.split("/") : [];
  if (parts.length !== 2) {
    throw new InvalidAddressError(
      `Invalid actor address ${JSON.stringify(String(text).slice(0, 300))}: ` +
        `expected "kind/id" with exactly one "/".`,
      "address",
      String(text),
    );
  }
  const [kind, id] = parts as [string, string];
  return actorAddress(kind, id);
}

/**
 * Whether `text` is a valid `kind/id` address.
 *
 * @param text - candidate address text.
 * @returns `true` when {@link parseAddress} would accept it.
 */
export function isValidAddressText(text: string): boolean {
  if (typeof text !== "string") return false;
  const parts = text.split("/");
  return parts.length === 2 && isValidActorKind(parts[0] ?? "") && isValidActorId(parts[1] ?? "");
}

/** An address in text form, `kind/id`, as carried in envelopes (`meta.actor`). */
export const actorAddressTextSchema = z.string().refine(isValidAddressText, {
  error:
    'Expected an actor address "kind/id": kind and id are 1 to 128 characters from ' +
    'A-Z, a-z, 0-9, "_" and "-", and the kind is not reserved.',
});
