import { INTERNAL_SUBJECT_ROOT, PUBLIC_SUBJECT_ROOT } from "./subject-token.js";

/**
 * Where hosts put a publish under `troupe.` that matched no route (docs/decisions/0012):
 * `_troupe.deadletter.unroutable`, inside the dead-letter stream's
 * `_troupe.deadletter.>`. It has 3 tokens, so it never meets an actor's dead
 * letters (`_troupe.deadletter.<kind>.<id>`, 4 tokens). The original subject is
 * in the record.
 */
export const UNROUTABLE_DEAD_LETTER_SUBJECT = `${INTERNAL_SUBJECT_ROOT}.deadletter.unroutable`;

/**
 * The most tokens a captured subject ending in `.in` may have: 16 (a session id
 * holding up to 12 dots). Longer ones are not captured.
 */
export const MAX_CAPTURED_SUBJECT_TOKENS = 16;

/**
 * NATS queue-group subscriptions with which hosts catch publishes under
 * `troupe.` that no route takes, without copying routed traffic to a host:
 *
 * - `troupe` and `troupe.*` … `troupe.*.*.*.*` (1 to 5 tokens): nothing routed
 *   has that shape but the 4-token `troupe.<kind>.<id>.in`, which the server's
 *   inbox mapping rewrites before any subscription sees it, and 5-token events
 *   of single-token event types (`troupe.k.i.events.ping`, custom kinds only),
 *   which {@link isRoutedPublicSubject} lets through;
 * - `troupe.*.*.*.*.*.in` … up to {@link MAX_CAPTURED_SUBJECT_TOKENS} tokens: an
 *   inbox subject whose kind or id holds dots (`troupe.session.a.b.in`). Events
 *   never end in `.in` (no built-in action is `in`).
 *
 * Not captured: 6 or more tokens not ending in `.in` (a `troupe.>` subscription
 * would receive every event), and anything published while no host runs (core
 * NATS keeps nothing). JetStream cannot capture these instead: a stream on any
 * of these shapes overlaps the event stream's `troupe.*.*.events.>` (decision
 * 0012).
 *
 * @returns the subscription subjects, shortest first.
 */
export function unroutableCaptureSubjects(): string[] {
  const subjects = [PUBLIC_SUBJECT_ROOT];
  for (let wildcards = 1; wildcards <= 4; wildcards += 1) {
    subjects.push([PUBLIC_SUBJECT_ROOT, ...Array<string>(wildcards).fill("*")].join("."));
  }
  for (let tokens = 6; tokens <= MAX_CAPTURED_SUBJECT_TOKENS; tokens += 1) {
    subjects.push([PUBLIC_SUBJECT_ROOT, ...Array<string>(tokens - 2).fill("*"), "in"].join("."));
  }
  return subjects;
}

/**
 * Whether a subject under `troupe.` has a route: `troupe.<kind>.<id>.in` (the
 * inbox mapping) or `troupe.<kind>.<id>.events.<eventType>` (the event stream).
 * Token contents are not checked here: a bad kind or id is routed to the inbox
 * and dead-lettered there with `invalid_address`.
 *
 * @param subject - a subject a capture subscription received.
 * @returns `true` when a route takes it, so it must not be dead-lettered.
 *
 * @example
 * ```ts
 * isRoutedPublicSubject("troupe.session.demo-1.in"); // true
 * isRoutedPublicSubject("troupe.session.a.b.in"); // false
 * ```
 */
export function isRoutedPublicSubject(subject: string): boolean {
  const tokens = subject.split(".");
  if (tokens[0] !== PUBLIC_SUBJECT_ROOT) return false;
  if (tokens.length === 4) return tokens[3] === "in";
  return tokens.length >= 5 && tokens[3] === "events";
}

/**
 * Says why a subject under `troupe.` has no route, for the dead letter's reason.
 *
 * @param subject - the unroutable subject.
 * @returns one sentence.
 */
export function describeUnroutableSubject(subject: string): string {
  return (
    `No route for the subject ${JSON.stringify(subject.slice(0, 300))}: an inbox subject is ` +
    `troupe.<kind>.<id>.in and an event subject troupe.<kind>.<id>.events.<type>, with kind ` +
    `and id one token each (1 to 128 of A-Z, a-z, 0-9, "_" and "-"; no "."); ` +
    `nothing processed this message.`
  );
}
