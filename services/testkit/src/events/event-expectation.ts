import type { EventEnvelope, EventType } from "@troupe/protocol";

/**
 * What a partial match of a value accepts: for an object, any subset of its
 * fields (each matched the same way, recursively); anything else as is.
 */
export type PartialDeep<T> = T extends readonly unknown[]
  ? T
  : T extends object
    ? { readonly [K in keyof T]?: PartialDeep<T[K]> }
    : T;

/**
 * One expected event of {@link TestDeployment.expectEvents}: an event type
 * (`"tool.approval_settled"`), or a partial event envelope whose fields must
 * all match (`{ type: "tool.approval_settled", payload: { decision: "timed_out" } }`).
 * Objects match field by field (fields not named are ignored), arrays element
 * by element with equal lengths, everything else with `Object.is`.
 */
export type EventExpectation =
  | EventType
  | { readonly [T in EventType]: { readonly type: T } & PartialDeep<EventEnvelope<T>> }[EventType];

/**
 * The event type an expectation names: `EventEnvelope<T>` for `T` or `{ type: T, … }`.
 */
export type ExpectedEvent<E> = E extends EventType
  ? EventEnvelope<E>
  : E extends { readonly type: infer T extends EventType }
    ? EventEnvelope<T>
    : EventEnvelope<EventType>;

/** The events matched for a list of expectations, each typed by the expectation at its place. */
export type ExpectedEvents<E extends readonly EventExpectation[]> = {
  -readonly [K in keyof E]: ExpectedEvent<E[K]>;
};

/**
 * Whether `actual` holds every field of `expected`, recursively: objects by
 * their named fields (extra fields of `actual` are fine), arrays element by
 * element with equal lengths, other values by `Object.is`.
 *
 * @param actual - any value (an event envelope, say).
 * @param expected - the partial value to look for.
 * @returns `true` when it matches.
 * @example matchesPartially({ type: "a", payload: { x: 1, y: 2 } }, { payload: { x: 1 } }) // true
 */
export function matchesPartially(actual: unknown, expected: unknown): boolean {
  if (Array.isArray(expected)) {
    return (
      Array.isArray(actual) &&
      actual.length === expected.length &&
      expected.every((item, index) => matchesPartially(actual[index], item))
    );
  }
  if (typeof expected === "object" && expected !== null) {
    if (typeof actual !== "object" || actual === null || Array.isArray(actual)) return false;
    return Object.entries(expected).every(([key, value]) =>
      matchesPartially((actual as Record<string, unknown>)[key], value),
    );
  }
  return Object.is(actual, expected);
}

/**
 * Whether an event meets one expectation.
 *
 * @param event - a session's event.
 * @param expectation - a type or a partial envelope.
 * @returns `true` when it matches.
 */
export function meetsExpectation(event: EventEnvelope, expectation: EventExpectation): boolean {
  return typeof expectation === "string"
    ? event.type === expectation
    : matchesPartially(event, expectation);
}

/**
 * A short description of an expectation, for error messages: the type, or the
 * partial envelope as JSON.
 *
 * @param expectation - a type or a partial envelope.
 */
export function describeExpectation(expectation: EventExpectation): string {
  return typeof expectation === "string" ? expectation : JSON.stringify(expectation);
}
