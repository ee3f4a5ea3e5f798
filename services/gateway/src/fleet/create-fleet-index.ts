import type { SessionEvent, TroupeClient } from "@troupe/client";
import { parseEventSubject } from "@troupe/protocol";
import { setTimeout as sleep } from "node:timers/promises";
import type { AccessScope } from "../http/access.js";
import type {
  FleetIndex,
  OpenQuestion,
  PendingApproval,
  SessionSummary,
} from "../http/gateway-context.js";
import { SessionRecord } from "./session-record.js";

/** Sessions without open waits the index keeps by default (the most recent): 1 000. */
export const DEFAULT_FLEET_SESSIONS = 1_000;
/** How long reading one session's history for a session the index no longer holds may take: 10 000 ms. */
const SESSION_REPLAY_TIMEOUT_MS = 10_000;
/** Pause before following the events stream again after an error: 1 000 ms. */
const RETRY_DELAY_MS = 1_000;

/** Options of {@link createFleetIndex}. */
export interface FleetIndexOptions {
  /** Told once per failure to follow the events stream. */
  readonly log: (line: string) => void;
  /** Sessions without open waits kept (the most recent); default {@link DEFAULT_FLEET_SESSIONS}. */
  readonly maxSessions?: number;
}

/**
 * The fleet index following `client`'s deployment (docs/decisions/0028): one ordered
 * consumer on every session's durable events (`TroupeClient.allSessionEvents`,
 * `troupe.session.*.events.>`) from the events stream's start, then live; per
 * session a {@link SessionRecord} (state, agent, last run, run in progress,
 * latest event, open approvals and questions by the `OpenWaits` rules).
 *
 * Memory is bounded: every session with an open approval or question, plus
 * the `maxSessions` with the most recent events. A session the index dropped
 * is read again from its own history when asked for (`session`,
 * `sessionApprovals`, `openQuestions`), so `GET /v1/sessions/:id` answers for
 * any session the events stream still holds.
 *
 * Stateless across processes: every gateway builds its own index from
 * JetStream. It starts following at the first call that reads it (`ready()`,
 * which every route of the index awaits first, or a query): a gateway that
 * only serves chats, and a `troupe dev` whose console is never opened, do not
 * decode every event of the deployment (that was about 1.1 ms of
 * the gateway's CPU and 0.4 ms of nats-server's per plain turn). `ready()`
 * resolves once the index caught up with what the stream held when it started
 * following (retrying every second while the stream is missing or unreachable).
 *
 * @param client - a connected client; the index does not close it.
 * @param options - see {@link FleetIndexOptions}.
 * @returns the index, following from its first read; `close()` stops it.
 */
export function createFleetIndex(client: TroupeClient, options: FleetIndexOptions): FleetIndex {
  return new EventsFleetIndex(client, options);
}

class EventsFleetIndex implements FleetIndex {
  /** Records by session id, least recently active first. */
  readonly #sessions = new Map<string, SessionRecord>();
  readonly #maxSessions: number;
  readonly #stop = new AbortController();
  readonly #ready: Promise<void>;
  /** Set by the first call that reads the index (see {@link createFleetIndex}). */
  #following: Promise<void> | undefined;
  #markReady: () => void = () => undefined;
  #nextSequence = 1;

  constructor(
    private readonly client: TroupeClient,
    private readonly options: FleetIndexOptions,
  ) {
    this.#maxSessions = Math.max(1, options.maxSessions ?? DEFAULT_FLEET_SESSIONS);
    this.#ready = new Promise((resolve) => (this.#markReady = resolve));
  }

  ready(): Promise<void> {
    this.#start();
    return this.#ready;
  }

  /** Starts following the events stream, once; a closed index stays closed. */
  #start(): void {
    if (this.#following === undefined && !this.#stop.signal.aborted)
      this.#following = this.#follow();
  }

  pendingApprovals(scope: AccessScope): Promise<PendingApproval[]> {
    this.#start();
    const approvals = [...this.#sessions.values()]
      .filter((record) => record.openWaits > 0 && reaches(scope, record.sessionId))
      .flatMap((record) => record.approvals())
      .sort((a, b) => a.sequence - b.sequence);
    return Promise.resolve(approvals);
  }

  recentSessions(scope: AccessScope, limit: number): Promise<SessionSummary[]> {
    this.#start();
    const out: SessionSummary[] = [];
    // The map holds the sessions in the order of their latest event.
    for (const record of [...this.#sessions.values()].reverse()) {
      if (out.length >= limit) break;
      if (reaches(scope, record.sessionId)) out.push(record.summary());
    }
    return Promise.resolve(out);
  }

  async session(sessionId: string): Promise<SessionSummary | undefined> {
    return (await this.#record(sessionId))?.summary();
  }

  async sessionApprovals(sessionId: string): Promise<PendingApproval[]> {
    return (await this.#record(sessionId))?.approvals() ?? [];
  }

  async openQuestions(sessionId: string): Promise<OpenQuestion[]> {
    return (await this.#record(sessionId))?.questions() ?? [];
  }

  async close(): Promise<void> {
    this.#stop.abort();
    await this.#following;
  }

  /** The session's record: the index's, else one read from its own history. */
  async #record(sessionId: string): Promise<SessionRecord | undefined> {
    this.#start();
    const held = this.#sessions.get(sessionId);
    if (held !== undefined) return held;
    if ((await this.client.storedEventCount(sessionId)) === 0) return undefined;
    const record = new SessionRecord(sessionId);
    const signal = AbortSignal.any([
      this.#stop.signal,
      AbortSignal.timeout(SESSION_REPLAY_TIMEOUT_MS),
    ]);
    for await (const tracked of this.client.events(sessionId, { fromSequence: 1, signal })) {
      record.observe(tracked);
      if (tracked.deltaSequence === undefined && tracked.pending === 0) break;
    }
    return record.lastSequence === 0 ? undefined : record;
  }

  async #follow(): Promise<void> {
    const signal = this.#stop.signal;
    while (!signal.aborted) {
      try {
        for await (const tracked of this.client.allSessionEvents({
          fromSequence: this.#nextSequence,
          signal,
          onCaughtUp: () => this.#markReady(),
        })) {
          this.#observe(tracked);
        }
      } catch (error) {
        if (signal.aborted) return;
        this.options.log(
          `gateway: the fleet index cannot follow the events stream (retrying): ${String(error)}`,
        );
      }
      if (signal.aborted) return;
      await sleep(RETRY_DELAY_MS, undefined, { signal }).catch(() => undefined);
    }
  }

  #observe(tracked: SessionEvent): void {
    this.#nextSequence = Math.max(this.#nextSequence, tracked.sequence + 1);
    let sessionId: string;
    try {
      sessionId = parseEventSubject(tracked.subject).address.id;
    } catch {
      return;
    }
    const record = this.#sessions.get(sessionId) ?? new SessionRecord(sessionId);
    record.observe(tracked);
    // Most recently active last.
    this.#sessions.delete(sessionId);
    this.#sessions.set(sessionId, record);
    this.#evict();
  }

  /** Drops the least recently active sessions without open waits beyond `maxSessions`. */
  #evict(): void {
    let excess = this.#sessions.size - this.#maxSessions;
    if (excess <= 0) return;
    for (const [sessionId, record] of this.#sessions) {
      if (excess <= 0) break;
      excess--;
      if (record.openWaits === 0) this.#sessions.delete(sessionId);
    }
  }
}

function reaches(scope: AccessScope, sessionId: string): boolean {
  return sessionId.startsWith(scope.sessionPrefix);
}
