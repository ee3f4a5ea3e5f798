import type { SessionEvent, TroupeClient } from "@troupe/client";
import type { EventEnvelope, EventType } from "@troupe/protocol";
import { EventsNotSeenError } from "./events-not-seen-error.js";

/** What a {@link followUntil} reader says after each event. */
export type FollowVerdict<T> =
  { readonly done: true; readonly value: T } | { readonly done: false };

/** Options of {@link followUntil}. */
export interface FollowUntilOptions {
  /** First events-stream sequence to read; default 1 (the session's whole history). */
  readonly fromSequence?: number;
  /** How long to wait, in ms. */
  readonly timeoutMs: number;
  /** Describes what is still missing, for the timeout error. */
  readonly missing: () => readonly string[];
}

/**
 * Reads a session's durable events (no `run.delta`) in stream order from
 * `fromSequence`, stored ones first and then new ones, handing each to `read`
 * (with whether the reader has caught up with the stream) until it says done.
 *
 * @param client - a connected client.
 * @param sessionId - the session.
 * @param read - called per event; `{ done: true, value }` ends the wait.
 * @param options - `fromSequence`, `timeoutMs`, `missing`.
 * @returns the value `read` ended with.
 * @throws EventsNotSeenError (code `timeout`) when `read` did not end within `timeoutMs`.
 */
export async function followUntil<T>(
  client: TroupeClient,
  sessionId: string,
  read: (
    event: EventEnvelope<EventType>,
    caughtUp: boolean,
    entry: SessionEvent,
  ) => FollowVerdict<T>,
  options: FollowUntilOptions,
): Promise<T> {
  const seen: string[] = [];
  const signal = AbortSignal.timeout(options.timeoutMs);
  for await (const entry of client.events(sessionId, {
    fromSequence: options.fromSequence ?? 1,
    signal,
  })) {
    if (entry.event.type === "run.delta") continue;
    seen.push(entry.event.type);
    const verdict = read(entry.event, entry.pending === 0, entry);
    if (verdict.done) return verdict.value;
  }
  throw new EventsNotSeenError(sessionId, options.timeoutMs, options.missing(), seen);
}
