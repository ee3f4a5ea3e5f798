/**
 * First token of every public subject: `troupe.<kind>.<id>.in`,
 * `troupe.<kind>.<id>.events.<eventType>`.
 */
export const PUBLIC_SUBJECT_ROOT = "troupe";

/**
 * First token of the subjects only hosts use: `_troupe.inbox.…` and
 * `_troupe.deadletter.…`.
 *
 * It differs from {@link PUBLIC_SUBJECT_ROOT} on purpose. JetStream refuses to
 * create a stream whose subjects could match a subject of another stream
 * (`SubjectsCollide` in nats-server's `subjectsOverlap`,
 * https://github.com/nats-io/nats-server/blob/main/server/stream.go), and the
 * event stream's `troupe.*.*.events.>` would collide with any `troupe.inbox.>` or
 * `troupe.deadletter.>`. A separate root also keeps internal subjects out of the
 * public inbox mapping `troupe.*.*.in` (a dead letter for id `in` would otherwise
 * be rewritten into an inbox).
 */
export const INTERNAL_SUBJECT_ROOT = "_troupe";

const forbiddenInToken = /[\s.*>]/u;

function hasControlCharacter(text: string): boolean {
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/**
 * Whether `token` can be one token of a NATS subject: non-empty, without `.`,
 * `*`, `>`, whitespace or control characters.
 *
 * @param token - candidate token.
 * @returns `true` when it is safe to put between two dots.
 */
export function isSubjectToken(token: string): boolean {
  return (
    typeof token === "string" &&
    token.length > 0 &&
    !forbiddenInToken.test(token) &&
    !hasControlCharacter(token)
  );
}
