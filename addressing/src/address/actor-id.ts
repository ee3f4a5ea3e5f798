import { z } from "zod";

/**
 * What an actor kind or id may look like: 1 to 128 characters from `A-Z`, `a-z`,
 * `0-9`, `_` and `-`. Such a token is safe inside a NATS subject (no `.`, `*`,
 * `>` or whitespace) and inside a Redis key.
 */
export const ACTOR_TOKEN_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

/** The longest kind or id, in characters. */
export const MAX_ACTOR_TOKEN_LENGTH = 128;

/** The rule as a sentence, for error messages. */
export const ACTOR_TOKEN_RULE = `1 to ${MAX_ACTOR_TOKEN_LENGTH} characters from A-Z, a-z, 0-9, "_" and "-"`;

/**
 * Whether `id` is a valid actor id (see {@link ACTOR_TOKEN_PATTERN}).
 *
 * @param id - candidate id, e.g. a session id chosen by a client.
 * @returns `true` when it matches the pattern.
 *
 * @example
 * ```ts
 * isValidActorId("demo-1"); // true
 * isValidActorId("a.b"); // false: dots separate subject tokens
 * ```
 */
export function isValidActorId(id: string): boolean {
  return typeof id === "string" && ACTOR_TOKEN_PATTERN.test(id);
}

/**
 * An actor id (or any id that must be subject- and key-safe, such as
 * `clientMessageId`): a string matching {@link ACTOR_TOKEN_PATTERN}.
 */
export const actorIdSchema = z
  .string()
  .regex(ACTOR_TOKEN_PATTERN, { error: `Expected ${ACTOR_TOKEN_RULE}.` });

/**
 * Says in words why `token` breaks {@link ACTOR_TOKEN_PATTERN}, or returns
 * `undefined` when it does not.
 *
 * @param token - candidate kind or id.
 * @returns e.g. `'it contains "."'`, `"it is empty"`, `"it is 130 characters long"`.
 */
export function describeTokenProblem(token: string): string | undefined {
  if (token.length === 0) return "it is empty";
  if (token.length > MAX_ACTOR_TOKEN_LENGTH) return `it is ${token.length} characters long`;
  const bad = /[^A-Za-z0-9_-]/u.exec(token);
  if (bad !== null) return `it contains ${JSON.stringify(bad[0])}`;
  return undefined;
}
