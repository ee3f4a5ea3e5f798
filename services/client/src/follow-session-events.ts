import {
  DeliverPolicy,
  type Consumer,
  type ConsumerMessages,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
  type OrderedConsumerOptions,
} from "@nats-io/jetstream";
import {
  actorAddress,
  allSessionsEventWildcard,
  decodeEvent,
  deltaSubject,
  eventWildcard,
} from "@troupe/protocol";
import { setTimeout as sleep } from "node:timers/promises";
import { DeltaMerger, type MergeSide } from "./delta-merger.js";
import { EventDeduplicator } from "./event-deduplicator.js";
import { isStreamNotFound } from "./is-stream-not-found.js";
import type { SessionEvent } from "./session-event.js";
import { StreamsMissingError } from "./streams-missing-error.js";

/** Options of {@link followSessionEvents}. */
export interface FollowSessionEventsOptions {
  readonly js: JetStreamClient;
  readonly jsm: JetStreamManager;
  /** Events stream name, e.g. `TROUPE_EVENTS`. */
  readonly stream: string;
  /** Deltas stream name, e.g. `TROUPE_DELTAS` (the transient `run.delta` events). */
  readonly deltaStream: string;
  /** Deployment prefix, for error messages. */
  readonly prefix: string;
  /**
   * The session (already validated by the caller), or `undefined` for the
   * durable events of every session (`troupe.session.*.events.>`, no deltas).
   */
  readonly sessionId: string | undefined;
  /** First events-stream sequence to yield; undefined = only events stored after the start. */
  readonly fromSequence?: number | undefined;
  /** Ends the iteration (cleanly, without an error) when aborted. */
  readonly signal?: AbortSignal | undefined;
  /** Reads the stream's last sequence (for "only new events"). */
  readonly lastSequence: () => Promise<number>;
  /** Whether the connection was closed for good (ends the iteration). */
  readonly isClosed: () => boolean;
  /**
   * Called each time the events-stream consumer has nothing more pending, after
   * the events before that point were yielded (and the caller took them).
   */
  readonly onCaughtUp?: (() => void) | undefined;
}

/** Attempts at reading where an iteration starts before its error is thrown. */
const START_ATTEMPTS = 4;

/** Longest pause between two attempts to recreate a consumer, in ms. */
const MAX_RETRY_DELAY_MS = 5_000;

/**
 * How long durable events wait for a deltas consumer that cannot be created
 * or asked where it is (e.g. JetStream API timeouts under load), in ms,
 * before they go out in arrival order. Waiting keeps a run's deltas before
 * its end event: once that end is yielded, its late deltas are dropped.
 */
export const DELTAS_UNREADABLE_GRACE_MS = 10_000;

/** What the two stream readers hand to the generator, in arrival order. */
type Arrival =
  | {
      readonly kind: "event" | "delta";
      readonly event: SessionEvent;
      readonly timeNs: number;
      readonly delivery: number;
    }
  | {
      readonly kind: "skip";
      readonly side: MergeSide;
      readonly sequence: number;
      readonly pending: number;
      readonly delivery: number;
    }
  | { readonly kind: "behind"; readonly side: MergeSide }
  /**
   * The side's consumer had nothing pending once it delivered `throughDelivery`
   * messages (its consumer sequence; 0 when it cannot be read at all);
   * `confirmed`: the server said so (not a failure to read it).
   */
  | {
      readonly kind: "caught-up";
      readonly side: MergeSide;
      readonly throughDelivery: number;
      readonly confirmed?: boolean;
    }
  | { readonly kind: "end" }
  | { readonly kind: "error"; readonly error: unknown };

/**
 * Yields a session's events: the durable ones from the events stream, from
 * `fromSequence` in stream order, merged with its transient `run.delta` events
 * from the deltas stream (docs/decisions/0014).
 *
 * Durable events: a JetStream ordered consumer (ephemeral, in memory, filtered
 * on `troupe.session.<id>.events.>`), recreated from the sequence after the
 * last yielded event whenever it breaks (server restart, reconnect, failed
 * request); {@link EventDeduplicator} drops re-deliveries by sequence and
 * re-published events by id, so the caller sees no gap and no duplicate.
 * Undecodable stream messages are skipped.
 *
 * Deltas: a second ordered consumer on the deltas stream (filtered on
 * `_troupe.delta.<id>`), starting at the
 * stored time of events-stream message `fromSequence - 1` (every stored delta
 * for sequence 1), so a client resuming after a sequence gets the deltas stored
 * after it, as when both were one stream; {@link DeltaMerger} orders them (see
 * there). A deployment without a deltas stream (hosts of an older release,
 * which store deltas in the events stream) is read through the events stream.
 *
 * A run's end (`run.completed`, `run.failed`, `run.cancelled`) goes out only
 * after the deltas consumer has said where it is (one consumer-info request
 * per run end) and every delta it had delivered by then was yielded, since the
 * merger drops a run's deltas once its end is out; likewise the first delta of
 * a run none of whose durable events went out waits until the events
 * consumer has said where it is, so that `run.started` comes first. Durable
 * events wait at most {@link DELTAS_UNREADABLE_GRACE_MS} for a deltas
 * consumer that cannot be created or asked (e.g. API timeouts under load),
 * then go out in arrival order.
 *
 * Without a `sessionId`: every session's durable events in stream order
 * (`troupe.session.*.events.>`, one filter subject, as nats-server 2.9 needs),
 * no deltas (the gateway's fleet index).
 *
 * @param options - see {@link FollowSessionEventsOptions}.
 * @returns an async generator; `break` or `signal` ends it and deletes nothing
 *   (the ephemeral consumers expire on the server).
 * @throws {@link StreamsMissingError} when the events stream does not exist at
 *   the first attempt.
 */
export async function* followSessionEvents(
  options: FollowSessionEventsOptions,
): AsyncGenerator<SessionEvent, void, undefined> {
  const { signal } = options;
  const stopped = () => signal?.aborted === true || options.isClosed();
  if (stopped()) return;
  let start: number;
  let deltaStart: Partial<OrderedConsumerOptions>;
  try {
    ({ start, deltaStart } = await startPosition(options, stopped));
  } catch (error) {
    if (stopped()) return;
    throw error;
  }
  const inner = new AbortController();
  const onAbort = () => inner.abort();
  signal?.addEventListener("abort", onAbort, { once: true });
  if (stopped()) inner.abort(); // aborted while the start was being read
  const queue = new ArrivalQueue();
  const { sessionId } = options;
  const filter =
    sessionId === undefined
      ? allSessionsEventWildcard()
      : eventWildcard(actorAddress("session", sessionId));
  const deduplicator = new EventDeduplicator({ afterSequence: Math.max(0, start - 1) });
  const merger = new DeltaMerger({ afterSequence: Math.max(0, start - 1) });
  let lastDeltaSequence = 0;
  const innerStopped = () => inner.signal.aborted || options.isClosed();

  // Consumer sequence of the last message handled, per side (0 after a recreate).
  const delivered: Record<MergeSide, number> = { events: 0, deltas: 0 };
  // The consumer sequence a side must reach before it counts as caught up
  // again (0: none, its messages' own `pending` 0 says so; Infinity: until its
  // consumer says where it is). A message's `pending` is counted when it is
  // delivered, so in a live follow it is 0 for nearly every message.
  const awaiting: Record<MergeSide, number> = { events: 0, deltas: 0 };
  /** Whether a side has nothing more to deliver once the message of `delivery` is handled. */
  const reachedEnd = (side: MergeSide, delivery: number, pending: number): boolean => {
    const target = awaiting[side];
    if (target > delivery) return false;
    if (target > 0) {
      awaiting[side] = 0;
      return true;
    }
    return pending === 0;
  };
  // The deltas side cannot be read now: durable events wait for it at most
  // DELTAS_UNREADABLE_GRACE_MS (the events side never makes deltas wait).
  let deltasGrace: ReturnType<typeof setTimeout> | undefined;
  const unreadable = (side: MergeSide, error?: unknown) => {
    if (side === "events" || (error !== undefined && isStreamNotFound(error))) {
      // No deltas stream (a deployment of an older release): nothing to wait for.
      queue.push({ kind: "caught-up", side, throughDelivery: 0 });
      return;
    }
    deltasGrace ??= setTimeout(() => {
      deltasGrace = undefined;
      queue.push({ kind: "caught-up", side: "deltas", throughDelivery: 0 });
    }, DELTAS_UNREADABLE_GRACE_MS);
  };
  const readable = (side: MergeSide) => {
    if (side !== "deltas") return;
    clearTimeout(deltasGrace);
    deltasGrace = undefined;
  };
  // The live consumer of each side, to ask where it is.
  const live: Partial<Record<MergeSide, { consumer: Consumer; signal: AbortSignal }>> = {};
  /**
   * Asks a side's consumer how far it is, retrying while it lives (the events
   * side: once), and queues `caught-up` through the consumer sequence that
   * empties what it had pending then.
   */
  const locate = async (side: MergeSide, consumer: Consumer, consumerSignal: AbortSignal) => {
    for (let attempt = 0; !consumerSignal.aborted; attempt++) {
      const info = await consumer.info().catch(() => undefined);
      if (consumerSignal.aborted) return;
      if (info !== undefined) {
        readable(side);
        const throughDelivery = info.delivered.consumer_seq + info.num_pending;
        queue.push({ kind: "caught-up", side, throughDelivery, confirmed: true });
        return;
      }
      unreadable(side);
      if (side === "events") return; // deltas do not wait for the events side
      await pause(attempt, consumerSignal);
    }
  };
  const onStart = (side: MergeSide) => (consumer: Consumer, consumerSignal: AbortSignal) => {
    queue.push({ kind: "behind", side });
    readable(side);
    live[side] = { consumer, signal: consumerSignal };
    consumerSignal.addEventListener(
      "abort",
      () => {
        if (live[side]?.consumer === consumer) delete live[side];
      },
      { once: true },
    );
    return locate(side, consumer, consumerSignal);
  };
  /**
   * Puts a caught-up side behind again until its consumer says where it is
   * (one consumer-info request), since the two consumers deliver
   * independently:
   * - the deltas side, before a run's end goes out: its last deltas may still
   *   be on their way (they are stored before the end event exists: the model
   *   call publishes them before it returns);
   * - the events side, before the first delta of a run none of whose durable
   *   events went out: its `run.started`, stored first, may still be on its way.
   */
  const recheck = (side: MergeSide) => {
    const current = live[side];
    if (current === undefined || !merger.isCaughtUp(side)) return;
    merger.behind(side);
    awaiting[side] = Number.POSITIVE_INFINITY;
    void locate(side, current.consumer, current.signal);
  };
  const events = pump({
    js: options.js,
    stream: options.stream,
    filter,
    signal: inner.signal,
    stopped: innerStopped,
    position: () => ({ opt_start_seq: deduplicator.nextSequence }),
    onStart: onStart("events"),
    onMessage: (message) => {
      const event = decodeMessage(message, message.seq);
      const delivery = message.info.deliverySequence;
      if (event === undefined) {
        queue.push({
          kind: "skip",
          side: "events",
          sequence: message.seq,
          pending: message.info.pending,
          delivery,
        });
      } else {
        const timeNs = Number(message.info.timestampNanos);
        queue.push({ kind: "event", event, timeNs, delivery });
      }
    },
    // Deltas must not wait for durable events that cannot be read now.
    onFailure: () => unreadable("events"),
    onMissing: (error) => {
      queue.push({
        kind: "error",
        error: new StreamsMissingError(options.stream, options.prefix, error),
      });
      return "stop";
    },
  }).then(
    () => queue.push({ kind: "end" }),
    (error: unknown) => queue.push({ kind: "error", error }),
  );
  // Every session's events: no deltas side, so durable events never wait for one.
  if (sessionId === undefined) merger.caughtUp("deltas");
  const deltas = (
    sessionId === undefined
      ? Promise.resolve()
      : pump({
          js: options.js,
          stream: options.deltaStream,
          filter: deltaSubject(sessionId),
          signal: inner.signal,
          stopped: innerStopped,
          position: () =>
            lastDeltaSequence === 0 ? deltaStart : { opt_start_seq: lastDeltaSequence + 1 },
          onStart: onStart("deltas"),
          onMessage: (message) => {
            if (message.seq <= lastDeltaSequence) return;
            lastDeltaSequence = message.seq;
            const event = decodeMessage(message, 0);
            const delivery = message.info.deliverySequence;
            if (event === undefined || event.event.meta.transient !== true) {
              const { pending } = message.info;
              queue.push({
                kind: "skip",
                side: "deltas",
                sequence: message.seq,
                pending,
                delivery,
              });
              return;
            }
            const timeNs = Number(message.info.timestampNanos);
            queue.push({ kind: "delta", event, timeNs, delivery });
          },
          // Durable events wait for a deltas stream that cannot be read, for a while.
          onFailure: (error) => unreadable("deltas", error),
          // An older deployment keeps deltas in the events stream; retry in case a
          // newer host creates the deltas stream later.
          onMissing: () => "retry",
        })
  ).catch(() => undefined);

  try {
    for (;;) {
      const arrival = await queue.next(inner.signal);
      if (arrival === undefined || arrival.kind === "end") return;
      if (arrival.kind === "error") {
        if (stopped()) return;
        throw arrival.error;
      }
      let out: readonly SessionEvent[];
      // Whether the events side has nothing more pending after this arrival.
      let caughtUp = false;
      switch (arrival.kind) {
        case "event": {
          delivered.events = arrival.delivery;
          const end = reachedEnd("events", arrival.delivery, arrival.event.pending);
          caughtUp = end;
          if (!deduplicator.admit(arrival.event)) {
            out = end ? merger.caughtUp("events") : [];
            break;
          }
          if (endsRun(arrival.event)) recheck("deltas");
          out = merger.event(arrival.event, arrival.timeNs, end);
          break;
        }
        case "delta": {
          delivered.deltas = arrival.delivery;
          const end = reachedEnd("deltas", arrival.delivery, arrival.event.pending);
          if (merger.firstOfUnknownRun(arrival.event)) recheck("events");
          out = merger.delta(arrival.event, arrival.timeNs, end);
          break;
        }
        case "skip": {
          delivered[arrival.side] = arrival.delivery;
          const end = reachedEnd(arrival.side, arrival.delivery, arrival.pending);
          caughtUp = arrival.side === "events" && end;
          if (arrival.side === "events") deduplicator.skip(arrival.sequence);
          out = end ? merger.caughtUp(arrival.side) : [];
          break;
        }
        case "behind":
          delivered[arrival.side] = 0;
          awaiting[arrival.side] = 0;
          merger.behind(arrival.side);
          continue;
        case "caught-up": {
          // Messages it delivered before may still be queued: the side is
          // caught up once the last of them is handled.
          const through = delivered[arrival.side] >= arrival.throughDelivery;
          caughtUp = through && arrival.side === "events" && arrival.confirmed === true;
          awaiting[arrival.side] = through ? 0 : arrival.throughDelivery;
          out = through ? merger.caughtUp(arrival.side) : [];
          break;
        }
      }
      for (const item of out) yield item;
      if (caughtUp) options.onCaughtUp?.();
    }
  } finally {
    signal?.removeEventListener("abort", onAbort);
    clearTimeout(deltasGrace);
    inner.abort();
    await Promise.all([events, deltas]);
  }
}

/**
 * Where an iteration starts: the events-stream sequence and the deltas
 * consumer's position. Two JetStream API requests, retried a few times when
 * they fail for a passing reason (e.g. a timeout under load); a missing stream
 * fails at once.
 */
async function startPosition(
  options: FollowSessionEventsOptions,
  stopped: () => boolean,
): Promise<{ start: number; deltaStart: Partial<OrderedConsumerOptions> }> {
  for (let attempt = 0; ; attempt++) {
    try {
      const start = options.fromSequence ?? (await options.lastSequence()) + 1;
      return { start, deltaStart: await deltaStartPosition(options.jsm, options.stream, start) };
    } catch (error) {
      const final =
        stopped() ||
        attempt >= START_ATTEMPTS - 1 ||
        isStreamNotFound(error) ||
        error instanceof StreamsMissingError;
      if (final) throw error;
      await pause(attempt, options.signal);
    }
  }
}

/**
 * Where the deltas consumer starts for an events-stream start sequence: at the
 * stored time of the events message before it (deltas stored after it), or
 * every stored delta from sequence 1 (or when that message is gone).
 */
async function deltaStartPosition(
  jsm: JetStreamManager,
  stream: string,
  start: number,
): Promise<Partial<OrderedConsumerOptions>> {
  if (start <= 1) return { deliver_policy: DeliverPolicy.All };
  let stored;
  try {
    stored = await jsm.streams.getMessage(stream, { seq: start - 1 });
  } catch (error) {
    if (isStreamNotFound(error)) throw error;
    stored = null;
  }
  if (stored === null) return { deliver_policy: DeliverPolicy.All };
  return { deliver_policy: DeliverPolicy.StartTime, opt_start_time: stored.timestamp };
}

/** Whether a durable event ends a run (after it, the merger drops that run's deltas). */
function endsRun(event: SessionEvent): boolean {
  const { type } = event.event;
  return type === "run.completed" || type === "run.failed" || type === "run.cancelled";
}

function decodeMessage(message: JsMsg, sequence: number): SessionEvent | undefined {
  try {
    const event = decodeEvent(message.data, {
      subject: message.subject,
      contentType: message.headers?.get("Content-Type") || undefined,
    });
    return {
      sequence,
      subject: message.subject,
      pending: message.info.pending,
      event,
      ...(sequence === 0 ? { deltaSequence: message.seq } : {}),
    };
  } catch {
    return undefined;
  }
}

interface PumpOptions {
  readonly js: JetStreamClient;
  readonly stream: string;
  readonly filter: string;
  readonly signal: AbortSignal;
  readonly stopped: () => boolean;
  /** Where the next consumer starts. */
  readonly position: () => Partial<OrderedConsumerOptions>;
  /** Called once each consumer consumes; `consumerSignal` aborts when its iteration ends. */
  readonly onStart: (consumer: Consumer, consumerSignal: AbortSignal) => Promise<void>;
  readonly onMessage: (message: JsMsg) => void;
  /** Called when a consumer could not be created (with the error) or its iteration broke. */
  readonly onFailure: (error?: unknown) => void;
  /** The stream does not exist at the first attempt: stop, or keep retrying. */
  readonly onMissing: (error: unknown) => "stop" | "retry";
}

/**
 * Reads one stream with an ordered consumer until `stopped()`, recreating the
 * consumer (from `position()`) whenever its iteration breaks.
 */
async function pump(options: PumpOptions): Promise<void> {
  const { js, stream, signal } = options;
  let attempt = 0;
  let consumed = false;
  while (!options.stopped()) {
    let messages: ConsumerMessages;
    let consumer: Consumer;
    try {
      consumer = await js.consumers.get(stream, {
        filter_subjects: options.filter,
        ...options.position(),
      });
      messages = await consumer.consume({ max_messages: 256 });
      consumed = true;
    } catch (error) {
      if (options.stopped()) return;
      if (!consumed && isStreamNotFound(error) && options.onMissing(error) === "stop") return;
      options.onFailure(error);
      await pause(attempt++, signal);
      continue;
    }
    const stop = () => {
      messages.close().catch(() => undefined);
    };
    signal.addEventListener("abort", stop, { once: true });
    if (options.stopped()) stop(); // aborted while the consumer was being created
    const consumerDone = new AbortController();
    try {
      void options.onStart(consumer, consumerDone.signal).catch(() => undefined);
      for await (const message of messages) {
        attempt = 0;
        options.onMessage(message);
      }
    } catch {
      // The consumer failed (e.g. it was lost with the server); recreate it below.
      if (!options.stopped()) options.onFailure();
    } finally {
      consumerDone.abort();
      signal.removeEventListener("abort", stop);
      await messages.close().catch(() => undefined);
      // Ordered consumers would otherwise stay on the server for their 5 min
      // inactivity threshold: one per follow, wait and chat turn.
      void consumer.delete().catch(() => undefined);
    }
    if (!options.stopped()) await pause(attempt++, signal);
  }
}

/** A FIFO the readers push into and the generator awaits. */
class ArrivalQueue {
  readonly #items: Arrival[] = [];
  #wake: (() => void) | undefined;

  push(arrival: Arrival): void {
    this.#items.push(arrival);
    this.#wake?.();
    this.#wake = undefined;
  }

  /** The next arrival, or undefined once `signal` aborted. */
  async next(signal: AbortSignal): Promise<Arrival | undefined> {
    for (;;) {
      const item = this.#items.shift();
      if (item !== undefined) return item;
      if (signal.aborted) return undefined;
      await new Promise<void>((resolve) => {
        const done = () => {
          signal.removeEventListener("abort", done);
          resolve();
        };
        this.#wake = done;
        signal.addEventListener("abort", done, { once: true });
      });
    }
  }
}

/** Waits 250 ms × 2^attempt (at most 5 s), or less when `signal` aborts. */
async function pause(attempt: number, signal: AbortSignal | undefined): Promise<void> {
  const delayMs = Math.min(MAX_RETRY_DELAY_MS, 250 * 2 ** Math.min(attempt, 10));
  await sleep(delayMs, undefined, signal === undefined ? {} : { signal }).catch(() => undefined);
}
