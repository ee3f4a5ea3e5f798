import { z } from "zod";
import { InvalidAddressError } from "../errors/invalid-address-error.js";
import { ACTOR_TOKEN_RULE, actorIdSchema, describeTokenProblem } from "./actor-id.js";
import { RESERVED_ACTOR_KINDS, actorKindSchema } from "./actor-kind.js";

/**
 * Where an actor lives: its kind (`session`, `run`, `tool`, `subagent` or a
 * user-defined kind) and its id. Written `kind/id` in text (see `formatAddress`).
 *
 * Shape: `{ kind: string; id: string }`, both matching `ACTOR_TOKEN_PATTERN`; the
 * kind is not in `RESERVED_ACTOR_KINDS`.
 */
export interface ActorAddress {
  readonly kind: string;
  readonly id: string;
}

/** Schema of {@link ActorAddress} as an object (`{ kind, id }`). */
export const actorAddressSchema = z.object({ kind: actorKindSchema, id: actorIdSchema });

/**
 * Builds a validated actor address.
 *
 * @param kind - actor kind, e.g. `"session"`; 1 to 128 of `[A-Za-z0-9_-]`, not reserved.
 * @param id - actor id, e.g. `"demo-1"`; 1 to 128 of `[A-Za-z0-9_-]`.
 * @returns `{ kind, id }`.
 * @throws {@link InvalidAddressError} naming the part that is wrong and what is allowed.
 *
 * @example
 * ```ts
 * const session = actorAddress("session", "demo-1");
 * inboxSubject(session); // "troupe.session.demo-1.in"
 * ```
 */
export function actorAddress(kind: string, id: string): ActorAddress {
  assertActorKind(kind);
  assertActorId(id);
  return { kind, id };
}

/**
 * Throws unless `kind` is a valid actor kind.
 *
 * @param kind - candidate kind.
 * @throws {@link InvalidAddressError} (field `"kind"`).
 */
export function assertActorKind(kind: string): void {
  const problem = typeof kind === "string" ? describeTokenProblem(kind) : "it is not a string";
  if (problem !== undefined) {
    throw new InvalidAddressError(
      `Invalid actor kind ${show(kind)}: ${problem}. Kinds are ${ACTOR_TOKEN_RULE}.`,
      "kind",
      String(kind),
    );
  }
  if (RESERVED_ACTOR_KINDS.includes(kind)) {
    throw new InvalidAddressError(
      `Invalid actor kind ${show(kind)}: it is reserved for internal subjects ` +
        `(reserved: ${RESERVED_ACTOR_KINDS.join(", ")}).`,
      "kind",
      kind,
    );
  }
}

/**
 * Throws unless `id` is a valid actor id.
 *
 * @param id - candidate id.
 * @throws {@link InvalidAddressError} (field `"id"`).
 */
export function assertActorId(id: string): void {
  const problem = typeof id === "string" ? describeTokenProblem(id) : "it is not a string";
  if (problem !== undefined) {
    throw new InvalidAddressError(
      `Invalid actor id ${show(id)}: ${problem}. Ids are ${ACTOR_TOKEN_RULE}.`,
      "id",
      String(id),
    );
  }
}

/** Quotes a value for an error message, cut to 64 characters. */
function show(value: unknown): string {
  const text = String(value);
  return JSON.stringify(text.length > 64 ? `${text.slice(0, 64)}…` : text);
}
