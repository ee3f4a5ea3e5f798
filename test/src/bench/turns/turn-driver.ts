import type { NatsConnection, Subscription } from "@nats-io/transport-node";
import { TroupeClient } from "@troupe/client";
import { allSessionsEventWildcard, parseEventSubject } from "@troupe/protocol";

/** The wall clock in ms with sub-ms resolution (comparable with JetStream's stored timestamps). */
export function epochNowMs(): number {
  return performance.timeOrigin + performance.now();
}

/** One measured turn; see {@link TurnDriver.turn}. */
export interface TurnTiming {
  readonly sessionId: string;
  /** When the client started publishing the user message (Unix ms, fractional). */
  readonly sentAtMs: number;
  /** When the run's `run.completed` arrived (Unix ms, fractional). */
  readonly completedAtMs: number;
  /** `completedAtMs - sentAtMs`: the turn latency, in ms. */
  readonly durationMs: number;
}

interface Waiter {
  readonly sentAtMs: number;
  readonly resolve: (completedAtMs: number) => void;
  readonly reject: (error: Error) => void;
}

/** Event types that end a turn without `run.completed`: the turn failed. */
const failureEvents = ["run.failed", "run.cancelled", "message.rejected"] as const;

/**
 * Drives agent turns through the public client and times them (issue #12): a
 * turn is `TroupeClient.send` of a user message until the session's
 * `run.completed` arrives on a core NATS subscription to
 * `troupe.session.*.events.run.completed`. One turn at a time per session (the
 * caller's job); any number of sessions at once. A `run.failed`,
 * `run.cancelled` or `message.rejected` of a session with a turn in flight
 * fails that turn.
 */
export class TurnDriver {
  readonly #client: TroupeClient;
  readonly #subscriptions: Subscription[];
  readonly #waiters = new Map<string, Waiter>();
  readonly #turnTimeoutMs: number;

  private constructor(client: TroupeClient, subscriptions: Subscription[], turnTimeoutMs: number) {
    this.#client = client;
    this.#subscriptions = subscriptions;
    this.#turnTimeoutMs = turnTimeoutMs;
  }

  /**
   * Connects a client and subscribes to the end events of every session.
   *
   * @param nats - the connection for the subscriptions (not the client's).
   * @param natsUrl - the server the client connects to.
   * @param turnTimeoutMs - longest wait for one turn's end, in ms.
   * @returns the driver; close it with {@link TurnDriver.close}.
   */
  static async start(
    nats: NatsConnection,
    natsUrl: string,
    turnTimeoutMs: number,
  ): Promise<TurnDriver> {
    const client = await TroupeClient.connect({ natsUrl });
    const subscriptions: Subscription[] = [];
    const driver = new TurnDriver(client, subscriptions, turnTimeoutMs);
    subscriptions.push(
      nats.subscribe(allSessionsEventWildcard("run.completed"), {
        callback: (error, message) => {
          if (error === null) driver.#completed(message.subject, epochNowMs());
        },
      }),
      ...failureEvents.map((eventType) =>
        nats.subscribe(allSessionsEventWildcard(eventType), {
          callback: (error, message) => {
            if (error === null) driver.#failed(message.subject, eventType);
          },
        }),
      ),
    );
    await nats.flush();
    return driver;
  }

  /**
   * Sends `text` to `sessionId` and waits for the run it starts to complete.
   *
   * @param sessionId - a session with no turn of this driver in flight.
   * @param text - the user message.
   * @returns the timing.
   * @throws Error when the turn fails, does not end within the turn timeout, or
   *   the session already has a turn in flight.
   */
  async turn(sessionId: string, text: string): Promise<TurnTiming> {
    if (this.#waiters.has(sessionId)) throw new Error(`session ${sessionId} has a turn in flight`);
    const sentAtMs = epochNowMs();
    let timer: NodeJS.Timeout | undefined;
    const completed = new Promise<number>((resolve, reject) => {
      this.#waiters.set(sessionId, { sentAtMs, resolve, reject });
      timer = setTimeout(
        () =>
          reject(
            new Error(`no run.completed for session ${sessionId} within ${this.#turnTimeoutMs} ms`),
          ),
        this.#turnTimeoutMs,
      );
    });
    // Handled here too: the run may fail before the send's stream ack arrives.
    completed.catch(() => undefined);
    try {
      await this.#client.send(sessionId, text);
      const completedAtMs = await completed;
      return { sessionId, sentAtMs, completedAtMs, durationMs: completedAtMs - sentAtMs };
    } finally {
      clearTimeout(timer);
      this.#waiters.delete(sessionId);
    }
  }

  /** Unsubscribes and closes the client. */
  async close(): Promise<void> {
    for (const subscription of this.#subscriptions) subscription.unsubscribe();
    await this.#client.close();
  }

  #completed(subject: string, atMs: number): void {
    this.#waiters.get(parseEventSubject(subject).address.id)?.resolve(atMs);
  }

  #failed(subject: string, eventType: string): void {
    const sessionId = parseEventSubject(subject).address.id;
    this.#waiters.get(sessionId)?.reject(new Error(`session ${sessionId}: ${eventType}`));
  }
}
