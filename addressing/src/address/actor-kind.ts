import { z } from "zod";
import { ACTOR_TOKEN_PATTERN, ACTOR_TOKEN_RULE } from "./actor-id.js";

/**
 * Kinds no actor may have, because internal subjects and keys use these words:
 * `inbox`, `deadletter`, `internal`, `host`. Matching is case-sensitive, as NATS
 * subjects are.
 */
export const RESERVED_ACTOR_KINDS: readonly string[] = ["inbox", "deadletter", "internal", "host"];

/**
 * Whether `kind` is a valid actor kind: it matches `ACTOR_TOKEN_PATTERN` and is not
 * one of {@link RESERVED_ACTOR_KINDS}.
 *
 * @param kind - candidate kind, e.g. `"session"`.
 * @returns `true` when the kind may be used.
 *
 * @example
 * ```ts
 * isValidActorKind("session"); // true
 * isValidActorKind("inbox"); // false: reserved
 * ```
 */
export function isValidActorKind(kind: string): boolean {
  return (
    typeof kind === "string" &&
    ACTOR_TOKEN_PATTERN.test(kind) &&
    !RESERVED_ACTOR_KINDS.includes(kind)
  );
}

/** An actor kind: see {@link isValidActorKind}. */
export const actorKindSchema = z
  .string()
  .regex(ACTOR_TOKEN_PATTERN, { error: `Expected ${ACTOR_TOKEN_RULE}.` })
  .refine((kind) => !RESERVED_ACTOR_KINDS.includes(kind), {
    error: `Actor kinds ${RESERVED_ACTOR_KINDS.join(", ")} are reserved.`,
  });
