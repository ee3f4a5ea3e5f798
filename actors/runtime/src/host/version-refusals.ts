import { type ActorAddress, alertSubject, toWireError, type WireError } from "@troupe/protocol";
import type { Logger } from "pino";
import type { Clock, UnknownMachineVersionError } from "@troupe/step";

/**
 * One actor this host refuses to process because it cannot read its snapshot
 * (docs/decisions/0022). Shape: `{ actor, storedVersion, hostVersion, sinceMs, refusals,
 * waitingMessages, nextRetryInMs }`.
 */
export interface RefusedActor {
  /** `kind/id`. */
  readonly actor: string;
  /** Machine version that wrote the stored snapshot. */
  readonly storedVersion: string;
  /** The kind's version on this host. */
  readonly hostVersion: string;
  /** When this host first refused it, Unix ms (the host's clock). */
  readonly sinceMs: number;
  /** Refused attempts so far (one per back-off window, not per message). */
  readonly refusals: number;
  /** Messages held un-acked in the actor's mailbox on this host. */
  readonly waitingMessages: number;
  /** Back-off before the next attempt, in ms. */
  readonly nextRetryInMs: number;
}

/**
 * What `ActorHost.versionRefusals` reports. Shape: `{ total, actors }`.
 */
export interface VersionRefusalReport {
  /** Refused attempts since the host started, over all actors. */
  readonly total: number;
  /** Actors refused now, by actor address ascending. */
  readonly actors: readonly RefusedActor[];
}

/**
 * JSON body of a version alert on `_troupe.alert.version.<kind>.<id>` (see
 * `alertSubject` in `@troupe/protocol`). Shape: `{ type, hostId, actor, seq,
 * storedVersion, hostVersion, refusals, waitingMessages, nextRetryInMs, atMs,
 * error }`.
 */
export interface VersionRefusalAlert {
  readonly type: "actor.refused";
  readonly hostId: string;
  readonly actor: string;
  /** Inbox sequence of the message waiting at the head of the mailbox (absent on a wake without one). */
  readonly seq?: number;
  readonly storedVersion: string;
  readonly hostVersion: string;
  readonly refusals: number;
  readonly waitingMessages: number;
  readonly nextRetryInMs: number;
  /** Unix ms (the host's clock). */
  readonly atMs: number;
  /** `unknown_machine_version`, retryable, with the sentence saying what to do. */
  readonly error: WireError;
}

/**
 * How long a refusal recorded in Redis counts as current, in ms: two maximal
 * back-offs (30 s) and a margin, so a refused actor's entry is refreshed before
 * it goes stale, and the entry of a host that died goes stale by itself.
 */
export const REFUSAL_RECORD_TTL_MS = 65_000;

/**
 * One refused actor as recorded in Redis (`RedisKeys.refusedActors()`, a hash
 * by actor) for `troupe status`. JSON. Shape: `{ hostId, storedVersion,
 * hostVersion, refusals, waitingMessages, sinceMs, expiresAtMs }` (Unix ms by
 * the host's clock).
 */
export interface RefusedActorRecord {
  readonly hostId: string;
  readonly storedVersion: string;
  readonly hostVersion: string;
  readonly refusals: number;
  readonly waitingMessages: number;
  readonly sinceMs: number;
  /** Stale after this: the host stopped refreshing it (it died, or stopped refusing). */
  readonly expiresAtMs: number;
}

/** Where a host records its refused actors for other processes (Redis in `ActorHost`). */
export interface RefusalRecords {
  /** Stores or refreshes one actor's entry. */
  save(actor: string, record: RefusedActorRecord): Promise<unknown>;
  /** Removes it (processed, or its shard left the host). */
  remove(actor: string): Promise<unknown>;
}

/** One refused attempt, as an actor cell reports it. */
export interface VersionRefusal {
  readonly address: ActorAddress;
  readonly error: UnknownMachineVersionError;
  /** Inbox sequence of the refused message; undefined for an activation without one. */
  readonly seq: number | undefined;
  readonly waitingMessages: number;
  readonly nextRetryInMs: number;
}

/**
 * The host's record of actors it refuses to process (docs/decisions/0022): one
 * error-level log line and one alert on `_troupe.alert.version.<kind>.<id>` per
 * refused attempt — the actor cell retries with a back-off from 1 s to 30 s, so
 * that is once per actor per back-off window, never per message — and a count
 * operators and tests read through `ActorHost.versionRefusals` and, across
 * processes, in Redis for `troupe status` ({@link RefusalRecords}).
 */
export class VersionRefusals {
  #total = 0;
  readonly #actors = new Map<string, RefusedActor>();

  /**
   * @param hostId - named in every alert.
   * @param logger - gets the error line per refused attempt.
   * @param clock - source of `sinceMs` and `atMs`.
   * @param publish - core NATS publish of an alert (fire and forget).
   * @param records - where refused actors are recorded for `troupe status`
   *   (fire and forget; a failure is logged at debug level).
   */
  constructor(
    private readonly hostId: string,
    private readonly logger: Logger,
    private readonly clock: Clock,
    private readonly publish: (subject: string, body: Uint8Array) => void,
    private readonly records?: RefusalRecords,
  ) {}

  /** Refused attempts since the host started and the actors refused now. */
  get report(): VersionRefusalReport {
    return {
      total: this.#total,
      actors: [...this.#actors.values()].sort((a, b) => (a.actor < b.actor ? -1 : 1)),
    };
  }

  /**
   * Records one refused attempt: counts it, logs it at error level and
   * publishes the alert. Never throws.
   *
   * @param refusal - the actor, the error and the mailbox state.
   */
  refused(refusal: VersionRefusal): void {
    const { error, address } = refusal;
    const previous = this.#actors.get(error.address);
    const actor: RefusedActor = {
      actor: error.address,
      storedVersion: error.storedVersion,
      hostVersion: error.hostVersion,
      sinceMs: previous?.sinceMs ?? this.clock.now(),
      refusals: (previous?.refusals ?? 0) + 1,
      waitingMessages: refusal.waitingMessages,
      nextRetryInMs: refusal.nextRetryInMs,
    };
    this.#total += 1;
    this.#actors.set(actor.actor, actor);
    this.logger.error(
      {
        actor: actor.actor,
        seq: refusal.seq,
        storedVersion: actor.storedVersion,
        hostVersion: actor.hostVersion,
        refusals: actor.refusals,
        waitingMessages: actor.waitingMessages,
        nextRetryInMs: actor.nextRetryInMs,
        code: error.code,
        reason: error.message,
      },
      `refusing to process ${actor.actor}: its snapshot is machine version ${actor.storedVersion}, ` +
        `this host runs ${actor.hostVersion}; its messages wait in the inbox (deploy a host that runs ` +
        `version ${actor.storedVersion}, or add a migration)`,
    );
    const alert: VersionRefusalAlert = {
      type: "actor.refused",
      hostId: this.hostId,
      actor: actor.actor,
      ...(refusal.seq === undefined ? {} : { seq: refusal.seq }),
      storedVersion: actor.storedVersion,
      hostVersion: actor.hostVersion,
      refusals: actor.refusals,
      waitingMessages: actor.waitingMessages,
      nextRetryInMs: actor.nextRetryInMs,
      atMs: this.clock.now(),
      error: toWireError(error),
    };
    this.#record(
      this.records?.save(actor.actor, {
        hostId: this.hostId,
        storedVersion: actor.storedVersion,
        hostVersion: actor.hostVersion,
        refusals: actor.refusals,
        waitingMessages: actor.waitingMessages,
        sinceMs: actor.sinceMs,
        expiresAtMs: this.clock.now() + REFUSAL_RECORD_TTL_MS,
      }),
      actor.actor,
    );
    try {
      this.publish(
        alertSubject("version", address.kind, address.id),
        new TextEncoder().encode(JSON.stringify(alert)),
      );
    } catch (publishError) {
      this.logger.warn({ actor: actor.actor, err: publishError }, "could not publish the alert");
    }
  }

  /**
   * The actor is no longer refused here: it was processed, or it left this host
   * (its shard was handed over, or it was passivated after a refused activation
   * with no message waiting). Logged at info.
   *
   * @param actor - `kind/id`.
   * @param how - `"processed"` or `"released"`.
   */
  resolved(actor: string, how: "processed" | "released"): void {
    const refused = this.#actors.get(actor);
    if (refused === undefined) return;
    this.#actors.delete(actor);
    this.#record(this.records?.remove(actor), actor);
    this.logger.info(
      { actor, refusals: refused.refusals, storedVersion: refused.storedVersion },
      how === "processed"
        ? "actor processed again after a version refusal"
        : "refused actor left this host (shard handed over, or passivated)",
    );
  }

  #record(write: Promise<unknown> | undefined, actor: string): void {
    void write?.catch((error: unknown) =>
      this.logger.debug({ actor, err: error }, "could not record the refusal in Redis"),
    );
  }
}
