import { INTERNAL_SUBJECT_ROOT, isSubjectToken } from "./subject-token.js";

/** Stand-in token for a kind or id that cannot be put into a subject. */
export const INVALID_TOKEN_PLACEHOLDER = "_invalid";

/**
 * Where a host puts a message it could not process (undecodable, invalid, too
 * large, addressed to an invalid actor), with the reason.
 *
 * Token layout: `_troupe.deadletter.<kind>.<id>` (4 tokens). When the kind or id
 * is not a usable subject token (empty, or containing `.`, `*`, `>` or
 * whitespace), both become `_invalid`: `_troupe.deadletter._invalid._invalid`.
 * Follow all dead letters with `_troupe.deadletter.>`, one kind with
 * `_troupe.deadletter.session.*`.
 *
 * Unlike inbox and event subjects, the kind and id are raw tokens here, not
 * validated actor addresses, since bad addresses are one reason to dead-letter.
 *
 * @param kind - raw kind token of the rejected message's subject.
 * @param id - raw id token of the rejected message's subject.
 * @returns e.g. `"_troupe.deadletter.session.demo-1"`.
 *
 * @example
 * ```ts
 * deadLetterSubject("session", "demo-1"); // "_troupe.deadletter.session.demo-1"
 * deadLetterSubject("session", ""); // "_troupe.deadletter._invalid._invalid"
 * ```
 */
export function deadLetterSubject(kind: string, id: string): string {
  if (isSubjectToken(kind) && isSubjectToken(id)) {
    return `${INTERNAL_SUBJECT_ROOT}.deadletter.${kind}.${id}`;
  }
  return `${INTERNAL_SUBJECT_ROOT}.deadletter.${INVALID_TOKEN_PLACEHOLDER}.${INVALID_TOKEN_PLACEHOLDER}`;
}
