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
  /** Longest time without a session becoming idle, in ms, before giving up. */
  readonly stallTimeoutMs: number;
  /** Called every `progressEvery` idle sessions (progress lines). */
  readonly onProgress?: (idle: number, elapsedMs: number) => void;
  readonly progressEvery?: number;
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
 * @returns elapsed time in ms, from the first publish to the last idle event.
 * @throws Error when no session became idle for `stallTimeoutMs`.
 */
export async function pumpSessions(
  nats: NatsConnection,
  js: JetStreamClient,
  options: SessionPumpOptions,
): Promise<number> {
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
  const waitForIdle = async () => {
    const stall = setTimeout(() => wake?.(), options.stallTimeoutMs);
    await new Promise<void>((resolve) => (wake = resolve));
    clearTimeout(stall);
    wake = undefined;
    if (performance.now() - lastIdleAtMs >= options.stallTimeoutMs) {
      throw new Error(
        `no session of ${options.label} became idle for ${options.stallTimeoutMs} ms ` +
          `(${idle.size} of ${options.sessions} idle)`,
      );
    }
  };
  try {
    let sent = 0;
    while (sent < options.sessions) {
      const room = Math.min(options.inFlight - (sent - idle.size), options.sessions - sent);
      if (room <= 0) {
        await waitForIdle();
        continue;
      }
      const batch = Array.from({ length: room }, (_, offset) =>
        js.publish(`troupe.session.${prefix}${sent + offset}.in`, options.body),
      );
      sent += room;
      await Promise.all(batch);
    }
    while (idle.size < options.sessions) await waitForIdle();
    return performance.now() - startedAtMs;
  } finally {
    subscription.unsubscribe();
  }
}
