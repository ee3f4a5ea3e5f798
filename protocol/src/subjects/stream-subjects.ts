import { builtinEventSchemas, transientEventTypes } from "../v1/event-schemas.js";
import { isSubjectToken, PUBLIC_SUBJECT_ROOT } from "./subject-token.js";

/**
 * Subjects of the inbox stream (the journal): every shard inbox subject,
 * `_troupe.inbox.<shard>.<kind>.<id>`.
 */
export const INBOX_STREAM_SUBJECTS = ["_troupe.inbox.>"] as const;

/**
 * Subjects of the deltas stream (`<P>_DELTAS`): the transient `run.delta`
 * events, `troupe.session.<id>.events.run.delta` (a subagent's deltas too: they
 * are published on the parent session's subject). Kept for the deltas retention
 * (default 1 h), apart from the durable events stream (issue #11).
 */
export const DELTA_STREAM_SUBJECTS = [`${PUBLIC_SUBJECT_ROOT}.session.*.events.run.delta`] as const;

/**
 * The subjects the events stream had before the deltas stream existed (every
 * event of every actor). It overlaps {@link DELTA_STREAM_SUBJECTS}, so a host
 * replaces it with {@link eventStreamSubjects} before creating the deltas stream.
 */
export const LEGACY_EVENT_STREAM_SUBJECTS = [`${PUBLIC_SUBJECT_ROOT}.*.*.events.>`] as const;

/** What {@link eventStreamSubjects} derives the events stream's subjects from. */
export interface EventStreamSubjectsOptions {
  /**
   * Actor kinds whose own event subjects (`troupe.<kind>.<id>.events.<type>`,
   * any type) the stream captures; `session` is skipped (its subjects come from
   * `eventTypes`), as is anything that is not a valid subject token.
   */
  readonly kinds?: readonly string[];
  /** Event types published on session subjects; default: `builtinEventSchemas`'s. */
  readonly eventTypes?: readonly string[];
  /** Of those, the transient ones (left to the deltas stream); default `transientEventTypes`. */
  readonly transientEventTypes?: readonly string[];
}

/**
 * Subjects of the durable events stream (`<P>_EVENTS`): every event subject
 * except the transient ones of {@link DELTA_STREAM_SUBJECTS}. NATS subjects
 * have no "all but", so the list is built from what is known (issue #11):
 *
 * - session subjects, from the registry of event types: a namespace (the first
 *   part of the type) without transient types is taken whole,
 *   `troupe.session.*.events.<namespace>.>`; in a namespace with one (`run`)
 *   each other type is listed, `troupe.session.*.events.run.completed`. A type
 *   added to the registry later is captured once a host with it starts.
 * - every other kind whole, `troupe.<kind>.*.events.>`: custom kinds may emit
 *   any event type.
 *
 * The result has no two overlapping subjects and none overlapping
 * {@link DELTA_STREAM_SUBJECTS}.
 *
 * @param options - see {@link EventStreamSubjectsOptions}.
 * @returns sorted subjects, e.g. `["troupe.counter.*.events.>", …,
 *   "troupe.session.*.events.run.completed", …, "troupe.session.*.events.tool.>"]`.
 */
export function eventStreamSubjects(options: EventStreamSubjectsOptions = {}): string[] {
  const eventTypes = options.eventTypes ?? Object.keys(builtinEventSchemas);
  const transient = new Set(options.transientEventTypes ?? transientEventTypes);
  const session = `${PUBLIC_SUBJECT_ROOT}.session.*.events`;
  const namespaces = new Map<string, string[]>();
  for (const type of eventTypes) {
    const namespace = type.split(".")[0] ?? type;
    namespaces.set(namespace, [...(namespaces.get(namespace) ?? []), type]);
  }
  const subjects = new Set<string>();
  for (const [namespace, types] of namespaces) {
    if (types.some((type) => transient.has(type))) {
      for (const type of types) if (!transient.has(type)) subjects.add(`${session}.${type}`);
    } else if (types.some((type) => type !== namespace)) {
      subjects.add(`${session}.${namespace}.>`);
      if (types.includes(namespace)) subjects.add(`${session}.${namespace}`);
    } else {
      subjects.add(`${session}.${namespace}`);
    }
  }
  for (const kind of options.kinds ?? []) {
    if (kind === "session" || !isSubjectToken(kind)) continue;
    subjects.add(`${PUBLIC_SUBJECT_ROOT}.${kind}.*.events.>`);
  }
  return [...subjects].sort();
}

/** Subjects of the dead-letter stream: `_troupe.deadletter.<kind>.<id>`. */
export const DEAD_LETTER_STREAM_SUBJECTS = ["_troupe.deadletter.>"] as const;

/**
 * Subjects of the transcript stream: the append-only conversation log of each
 * session, `_troupe.transcript.<sessionId>` (kept outside snapshots, so a snapshot stays small however long the conversation).
 */
export const TRANSCRIPT_STREAM_SUBJECTS = ["_troupe.transcript.>"] as const;
