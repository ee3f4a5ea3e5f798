import type { Consumer, ConsumerMessages, JetStreamClient } from "@nats-io/jetstream";
import { actorAddress, decodeEvent, eventWildcard } from "@troupe/protocol";
import { setTimeout as sleep } from "node:timers/promises";
import { EventDeduplicator } from "./event-deduplicator.js";
import { isStreamNotFound } from "./is-stream-not-found.js";
import type { SessionEvent } from "./session-event.js";
import { StreamsMissingError } from "./streams-missing-error.js";

/** Options of {@link followSessionEvents}. */
export interface FollowSessionEventsOptions {
  readonly js: JetStreamClient;
  /** Events stream name, e.g. `TROUPE_EVENTS`. */
  readonly stream: string;
  /** Deployment prefix, for error messages. */
  readonly prefix: string;
  /** The session (already validated by the caller). */
  readonly sessionId: string;
  /** First events-stream sequence to yield; undefined = only events stored after the start. */
  readonly fromSequence?: number | undefined;
  /** Ends the iteration (cleanly, without an error) when aborted. */
  readonly signal?: AbortSignal | undefined;
  /** Reads the stream's last sequence (for "only new events"). */
  readonly lastSequence: () => Promise<number>;
  /** Whether the connection was closed for good (ends the iteration). */
  readonly isClosed: () => boolean;
}

/** Longest pause between two attempts to recreate the consumer, in ms. */
const MAX_RETRY_DELAY_MS = 5_000;

/**
 * Yields a session's events from the events stream: first the stored ones from
 * `fromSequence`, then new ones as they arrive, in stream order.
 *
 * Reads with a JetStream ordered consumer (ephemeral, in memory, filtered on
 * `troupe.session.<id>.events.>`): nats.js recreates it after a gap or a lost
 * consumer, and when the iteration breaks anyway (the server restarted and lost
 * the in-memory consumer, the connection came back, a request failed) this
 * function creates a new one from the sequence after the last yielded event.
 * {@link EventDeduplicator} drops re-deliveries by sequence and re-published
 * events by id, so the caller sees no gap and no duplicate. Undecodable stream
 * messages are skipped.
 *
 * @param options - see {@link FollowSessionEventsOptions}.
 * @returns an async generator; `break` or `signal` ends it and deletes nothing
 *   (the ephemeral consumer expires on the server).
 * @throws {@link StreamsMissingError} when the events stream does not exist at
 *   the first attempt.
 */
export async function* followSessionEvents(
  options: FollowSessionEventsOptions,
): AsyncGenerator<SessionEvent, void, undefined> {
  const { js, stream, signal } = options;
  const filter = eventWildcard(actorAddress("session", options.sessionId));
  const stopped = () => signal?.aborted === true || options.isClosed();
  if (stopped()) return;
  let start: number;
  try {
    start = options.fromSequence ?? (await options.lastSequence()) + 1;
  } catch (error) {
    if (stopped()) return;
    throw error;
  }
  const deduplicator = new EventDeduplicator({ afterSequence: Math.max(0, start - 1) });
  let attempt = 0;
  let consumed = false;
  while (!stopped()) {
    let messages: ConsumerMessages;
    let consumer: Consumer;
    try {
      consumer = await js.consumers.get(stream, {
        filter_subjects: filter,
        opt_start_seq: deduplicator.nextSequence,
      });
      messages = await consumer.consume({ max_messages: 256 });
      consumed = true;
    } catch (error) {
      if (stopped()) return;
      if (!consumed && isStreamNotFound(error)) {
        throw new StreamsMissingError(stream, options.prefix, error);
      }
      await pause(attempt++, signal);
      continue;
    }
    const stop = () => {
      messages.close().catch(() => undefined);
    };
    signal?.addEventListener("abort", stop, { once: true });
    if (stopped()) stop(); // aborted while the consumer was being created
    try {
      for await (const message of messages) {
        attempt = 0;
        let sessionEvent: SessionEvent;
        try {
          const event = decodeEvent(message.data, {
            subject: message.subject,
            contentType: message.headers?.get("Content-Type") || undefined,
          });
          sessionEvent = {
            sequence: message.seq,
            subject: message.subject,
            pending: message.info.pending,
            event,
          };
        } catch {
          deduplicator.skip(message.seq);
          continue;
        }
        if (deduplicator.admit(sessionEvent)) yield sessionEvent;
      }
    } catch {
      // The consumer failed (e.g. it was lost with the server); recreate it below.
    } finally {
      signal?.removeEventListener("abort", stop);
      await messages.close().catch(() => undefined);
      // Ordered consumers would otherwise stay on the server for their 5 min
      // inactivity threshold: one per follow, wait and chat turn.
      void consumer.delete().catch(() => undefined);
    }
    if (!stopped()) await pause(attempt++, signal);
  }
}

/** Waits 250 ms × 2^attempt (at most 5 s), or less when `signal` aborts. */
async function pause(attempt: number, signal: AbortSignal | undefined): Promise<void> {
  const delayMs = Math.min(MAX_RETRY_DELAY_MS, 250 * 2 ** Math.min(attempt, 10));
  await sleep(delayMs, undefined, signal === undefined ? {} : { signal }).catch(() => undefined);
}
