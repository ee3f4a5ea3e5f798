import type { JetStreamClient } from "@nats-io/jetstream";
import type { NatsConnection } from "@nats-io/transport-node";

/** Options of {@link pumpSessions}. */
export interface SessionPumpOptions {
  /** Session ids are `<label>-<index>` for index 0 … sessions − 1. */
  readonly label: string;
  readonly sessions: number;
  /** Sessions whose turn is in flight at once (published, not yet idle). */
  readonly inFlight: number;
  /** The JSON message each session gets once (e.g. a `user.message` "hello"). */
  readonly body: Uint8Array;
  /** Longest time without a session becoming idle, in ms, before giving up waiting. */
  readonly stallTimeoutMs: number;
  /**
   * A session not idle this long after its publish no longer holds an
   * in-flight slot (it is still counted as not idle), so one lost event or
   * stuck session cannot stop the run. Default: `stallTimeoutMs`.
   */
  readonly slotTimeoutMs?: number;
  /** No new session is published after this `performance.now()` time (a time budget); default none. */
  readonly publishUntilMs?: number;
  /** Called every `progressEvery` idle sessions (progress lines). */
  readonly onProgress?: (idle: number, elapsedMs: number) => void;
  readonly progressEvery?: number;
}

/** What {@link pumpSessions} did. */
export interface SessionPumpResult {
  /** From the first publish to the last idle event, in ms. */
  readonly elapsedMs: number;
  /** Sessions published (all of them, unless `publishUntilMs` came first). */
  readonly published: number;
  /** Sessions whose `session.idle` arrived. */
  readonly idle: number;
}

/**
 * Creates `sessions` new sessions on a running deployment, each with one
 * message published to its public inbox (`troupe.session.<id>.in`, with a
 * JetStream ack), at most `inFlight` of them between publish and their
 * `session.idle` event (issue #17, capacity simulation). Completion is counted
 * from a core subscription to `troupe.session.*.events.session.idle`, once per
 * session (events are at-least-once).
 *
 * @param nats - connection for the idle subscription.
 * @param js - JetStream client for the publishes.
 * @param options - see {@link SessionPumpOptions}.
 * @returns elapsed time, sessions published and sessions idle: when no session
 *   became idle for `stallTimeoutMs` at the end, it stops waiting and says how
 *   many did (a loaded machine can stall a host; the caller reports it).
 */
export async function pumpSessions(
  nats: NatsConnection,
  js: JetStreamClient,
  options: SessionPumpOptions,
): Promise<SessionPumpResult> {
  const prefix = `${options.label}-`;
  const idle = new Set<string>();
  let wake: (() => void) | undefined;
  let lastIdleAtMs = performance.now();
  const subscription = nats.subscribe("troupe.session.*.events.session.idle", {
    callback: (error, message) => {
      if (error !== null) return;
      const session = message.subject.split(".")[2] ?? "";
      if (!session.startsWith(prefix) || idle.has(session)) return;
      idle.add(session);
      lastIdleAtMs = performance.now();
      if (options.onProgress !== undefined && idle.size % (options.progressEvery ?? 10_000) === 0)
        options.onProgress(idle.size, performance.now() - startedAtMs);
      wake?.();
    },
  });
  await nats.flush();
  const startedAtMs = performance.now();
  const slotTimeoutMs = options.slotTimeoutMs ?? options.stallTimeoutMs;
  /** Publish times of the sessions in flight, oldest first (by index). */
  const publishedAtMs: number[] = [];
  let oldestInFlight = 0;
  /** Sessions holding a slot: published, not idle, not timed out. */
  const inFlight = (sent: number) => {
    const now = performance.now();
    while (
      oldestInFlight < sent &&
      (idle.has(`${prefix}${oldestInFlight}`) ||
        now - (publishedAtMs[oldestInFlight] ?? now) > slotTimeoutMs)
    ) {
      oldestInFlight += 1;
    }
    let count = 0;
    for (let index = oldestInFlight; index < sent; index += 1)
      if (!idle.has(`${prefix}${index}`)) count += 1;
    return count;
  };
  const waitForIdle = async (timeoutMs: number) => {
    const timer = setTimeout(() => wake?.(), timeoutMs);
    await new Promise<void>((resolve) => (wake = resolve));
    clearTimeout(timer);
    wake = undefined;
  };
  try {
    let sent = 0;
    while (sent < options.sessions && performance.now() < (options.publishUntilMs ?? Infinity)) {
      const room = Math.min(options.inFlight - inFlight(sent), options.sessions - sent);
      if (room <= 0) {
        await waitForIdle(1_000);
        continue;
      }
      const now = performance.now();
      const batch = Array.from({ length: room }, (_, offset) => {
        publishedAtMs[sent + offset] = now;
        return js.publish(`troupe.session.${prefix}${sent + offset}.in`, options.body);
      });
      sent += room;
      await Promise.all(batch);
    }
    while (idle.size < sent && performance.now() - lastIdleAtMs < options.stallTimeoutMs) {
      await waitForIdle(1_000);
    }
    return { elapsedMs: lastIdleAtMs - startedAtMs, published: sent, idle: idle.size };
  } finally {
    subscription.unsubscribe();
  }
}
