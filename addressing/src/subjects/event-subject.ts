import { actorAddress, type ActorAddress } from "../address/actor-address.js";
import { formatAddress } from "../address/format-address.js";
import { DecodeError } from "../errors/decode-error.js";
import { assertEventType, isValidEventType } from "./event-type.js";
import { PUBLIC_SUBJECT_ROOT } from "./subject-token.js";

/**
 * The subject an actor publishes one type of event on.
 *
 * Token layout: `troupe.<kind>.<id>.events.<eventType>`, where the dotted event
 * type adds one token per part (`run.completed` → `…events.run.completed`).
 * Runs, tool calls and subagents publish on their session's subjects, so
 * everything about a session sits under `troupe.session.<sessionId>.events.>`.
 *
 * Useful wildcards:
 * - `troupe.session.s1.events.>` — everything about session `s1` ({@link eventWildcard});
 * - `troupe.session.s1.events.run.*` — its run events;
 * - `troupe.session.*.events.tool.approval_requested` — a fleet-wide approvals feed
 *   ({@link allSessionsEventWildcard});
 * - `troupe.*.*.events.>` — every event (the event stream's subjects).
 *
 * @param address - the actor the event is about.
 * @param eventType - e.g. `"run.completed"`; see `EVENT_TYPE_PATTERN`.
 * @returns e.g. `"troupe.session.s1.events.run.completed"`.
 * @throws {@link InvalidAddressError} when the address breaks the address rules.
 * @throws RangeError when `eventType` breaks `EVENT_TYPE_PATTERN`.
 *
 * @example
 * ```ts
 * eventSubject({ kind: "session", id: "s1" }, "run.completed");
 * // "troupe.session.s1.events.run.completed"
 * ```
 */
export function eventSubject(address: ActorAddress, eventType: string): string {
  formatAddress(address);
  assertEventType(eventType);
  return `${PUBLIC_SUBJECT_ROOT}.${address.kind}.${address.id}.events.${eventType}`;
}

/**
 * The wildcard that follows every event of one actor: `troupe.<kind>.<id>.events.>`.
 *
 * @param address - the actor, usually a session.
 * @returns e.g. `"troupe.session.s1.events.>"`.
 * @throws {@link InvalidAddressError} when the address breaks the address rules.
 */
export function eventWildcard(address: ActorAddress): string {
  formatAddress(address);
  return `${PUBLIC_SUBJECT_ROOT}.${address.kind}.${address.id}.events.>`;
}

/**
 * The wildcard that follows one event type across every session,
 * `troupe.session.*.events.<eventType>`, or, without a type, every event of
 * every session, `troupe.session.*.events.>` (the HTTP gateway's fleet index
 * follows it).
 *
 * @param eventType - e.g. `"tool.approval_requested"`; omitted = every type.
 * @returns e.g. `"troupe.session.*.events.tool.approval_requested"`.
 * @throws RangeError when `eventType` breaks `EVENT_TYPE_PATTERN`.
 */
export function allSessionsEventWildcard(eventType?: string): string {
  if (eventType === undefined) return `${PUBLIC_SUBJECT_ROOT}.session.*.events.>`;
  assertEventType(eventType);
  return `${PUBLIC_SUBJECT_ROOT}.session.*.events.${eventType}`;
}

/** An event subject taken apart: whose event it is and its type. */
export interface EventSubjectParts {
  readonly address: ActorAddress;
  readonly eventType: string;
}

/**
 * Takes an event subject apart.
 *
 * @param subject - e.g. `"troupe.session.s1.events.run.completed"`.
 * @returns `{ address, eventType }`.
 * @throws {@link DecodeError} (reason `undecodable`) when the layout is not
 *   `troupe.<kind>.<id>.events.<eventType>`.
 * @throws {@link InvalidAddressError} when the kind or id breaks the address rules.
 */
export function parseEventSubject(subject: string): EventSubjectParts {
  const tokens = String(subject).split(".");
  const eventType = tokens.slice(4).join(".");
  if (
    tokens.length < 5 ||
    tokens[0] !== PUBLIC_SUBJECT_ROOT ||
    tokens[3] !== "events" ||
    !isValidEventType(eventType)
  ) {
    throw new DecodeError(
      `Not an event subject: ${JSON.stringify(String(subject))}; ` +
        `expected troupe.<kind>.<id>.events.<eventType>.`,
      { reason: "undecodable", subject },
    );
  }
  return { address: actorAddress(tokens[1] ?? "", tokens[2] ?? ""), eventType };
}
