import { setTimeout as sleep } from "node:timers/promises";
import { shardConsumerName } from "../streams/shard-consumer-name.js";
import {
  AckPolicy,
  DeliverPolicy,
  type ConsumerMessages,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
} from "@nats-io/jetstream";
import { nanos } from "@nats-io/transport-node";
import {
  type ActorAddress,
  InvalidAddressError,
  TroupeError,
  actorAddress,
  formatAddress,
  inboxSubject,
  parseShardInboxSubject,
  shardInboxFilter,
  shardOf,
  CONTENT_TYPE_HEADER,
  type PriorityClass,
  type StreamNames,
} from "@troupe/protocol";
import type { Logger } from "pino";
import {
  type Clock,
  LeaseLostError,
  type ActorKindDefinition,
  type ActorRecord,
  type PendingEffect,
  deadLetterItem,
} from "@troupe/step/internal";
import type { HostMetrics } from "../observability/host-metrics.js";
import type { CommitOutcome, LeaseGrant, SnapshotStore } from "@troupe/stores/internal";
import { ActorCell, type ActorCellDependencies } from "./actor-cell.js";
import { scanForCatchUp } from "./shard-catch-up.js";
import { catchUpRange } from "./shard-count-state.js";
import type { EffectRunner } from "./effect-runner.js";
import type { HostSettings } from "./host-options.js";
import type { OutboxPublisher } from "./outbox-publisher.js";
import type { VersionRefusals } from "./version-refusals.js";

/** Why a worker stopped on a lease: another grant holds it, or Redis lost commits made under it (docs/decisions/0031). */
export type LeaseLossReason = "lost" | "writes_lost";

/** What a {@link ShardWorker} uses of its host (a `HostRuntime` has all of it). */
export interface ShardWorkerDependencies {
  readonly settings: Pick<
    HostSettings,
    | "hostId"
    | "prefix"
    | "shardCount"
    | "ackWaitMs"
    | "pullExpiresMs"
    | "maxAckPendingPerShard"
    | "keepGenerations"
    | "historyRetentionMs"
    | "maxPayloadBytes"
    | "simulatedStreamTimeOffsetMs"
    | "testFaults"
  >;
  readonly js: JetStreamClient;
  readonly jsm: JetStreamManager;
  readonly streams: StreamNames;
  readonly snapshots: SnapshotStore;
  /** Kinds by name: a message for another kind is dead-lettered. */
  readonly kinds: ReadonlyMap<string, ActorKindDefinition>;
  readonly publisher: OutboxPublisher;
  readonly effects: EffectRunner;
  readonly logger: Logger;
  /** Runs a task within the host's `maxConcurrency`. */
  readonly limit: <T>(task: () => Promise<T>, priority?: PriorityClass) => Promise<T>;
  readonly clock: Clock;
  /** Actors refused for their machine version (docs/decisions/0022). */
  readonly refusals: Pick<VersionRefusals, "refused" | "resolved">;
  /** Counts messages, dead letters, activations and passivations (docs/decisions/0038). */
  readonly metrics: HostMetrics;
}

/**
 * Everything one host does for one shard it leases: a JetStream consumer on the
 * shard's inbox subjects, the shard's activated actors, and the watermark (the
 * inbox sequence below which every delivered message is done).
 *
 * A new owner deletes the previous owner's consumer and creates its own from the
 * saved watermark, so messages the previous owner never finished are delivered at
 * once — failover does not wait for AckWait. Messages the snapshot already
 * reflects are skipped by the step.
 *
 * Each actor has its own mailbox (`ActorCell`), so an actor this host refuses
 * for its machine version holds back only its own messages: the
 * shard's other actors go on until the refused actor's un-acked messages fill
 * `maxAckPendingPerShard` (the consumer then delivers nothing more for the
 * shard; nothing is lost either way, decision 0022). The consumer has no
 * `max_deliver`: a waiting message is redelivered, never dropped.
 */
export class ShardWorker {
  readonly #cells = new Map<string, ActorCell>();
  readonly #outstanding = new Set<number>();
  readonly #abort = new AbortController();
  /** Aborted as soon as the worker stops accepting (drain or lease lost): ends back-off sleeps. */
  readonly #stopAccepting = new AbortController();
  /** Aborted only when this worker gives its running effects up (a drain that timed out). */
  readonly #effectsGiveUp = new AbortController();
  /** Running effects: the runner's promise → the tracked one (never rejects). */
  readonly #runningEffects = new Map<Promise<void>, Promise<void>>();
  #messages: ConsumerMessages | undefined;
  #highestDelivered = 0;
  /** Messages not yet delivered to this shard's consumer, as its last delivery said. */
  #undelivered = 0;
  #savedWatermark = 0;
  /** Commits this worker made under its lease grant (the highest count a commit answered). */
  #writesFloor = 0;
  #accepting = true;
  #loop: Promise<void> | undefined;
  readonly #cellDependencies: ActorCellDependencies;

  /**
   * @param shard - the shard this worker serves.
   * @param token - the fencing token of the host's lease on it.
   * @param dependencies - clients, stores and settings of the host.
   * @param onLeaseLost - called once a commit found the lease gone (`lost`), or
   *   found that the store lost commits made under it (`writes_lost`).
   * @param resizeMarkerSeq - inbox sequence of the last shard-count change's
   *   marker (`ShardCountState.markerSeq`); undefined when the count
   *   never changed.
   */
  constructor(
    readonly shard: number,
    readonly token: number,
    private readonly dependencies: ShardWorkerDependencies,
    private readonly onLeaseLost: (worker: ShardWorker, reason: LeaseLossReason) => void,
    private readonly resizeMarkerSeq?: number,
  ) {
    const { snapshots, publisher, effects, limit, logger, settings, clock, refusals, metrics } =
      dependencies;
    this.#cellDependencies = {
      snapshots,
      publisher,
      effects,
      limit,
      logger,
      maxPayloadBytes: settings.maxPayloadBytes,
      streamTimeOffsetMs: settings.simulatedStreamTimeOffsetMs,
      clock,
      refusals,
      metrics,
      shard: {
        accepting: () => this.#accepting,
        commit: (previous, next) => this.commit(previous, next),
        complete: (message) => this.complete(message),
        startEffect: (address, definition, effect) => this.startEffect(address, definition, effect),
        sleep: (ms) => this.sleep(ms),
        rearmTimer: (address, timer, dueAtMs) =>
          this.dependencies.snapshots.rearmTimer({ shard: this.shard, address, timer }, dueAtMs),
      },
    };
  }

  /** The lease grant this worker writes under: the host, the fencing token and the commits it made. */
  get lease(): LeaseGrant {
    return {
      owner: this.dependencies.settings.hostId,
      token: this.token,
      writesFloor: this.#writesFloor,
    };
  }

  /** Commits this worker made under its grant; a renewal or commit that finds fewer means Redis lost writes. */
  get writesFloor(): number {
    return this.#writesFloor;
  }

  /** False once the worker drains or lost its lease: cells stop taking messages. */
  get accepting(): boolean {
    return this.#accepting;
  }

  /** Actors of this shard in memory. */
  get activeActors(): number {
    return this.#cells.size;
  }

  /**
   * Inbox lag of the shard (docs/decisions/0038): messages not yet delivered to its
   * consumer as of the last delivery (`JsMsg.info.pending`, free) plus those
   * delivered and not yet acked. No JetStream request.
   */
  get inboxLag(): number {
    return this.#undelivered + this.#outstanding.size;
  }

  /** Aborted when this worker stops processing (drained, or its lease lost). */
  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  /**
   * Creates the consumer from the watermark, starts consuming and wakes dirty
   * actors. After a change of the shard count, while the watermark has not
   * passed the change's marker, it first hands the actors of this shard their
   * messages below the marker from the whole inbox (`scanForCatchUp`), then
   * consumes its own subjects from the marker on (decision 0035).
   */
  async start(): Promise<void> {
    const { jsm, js, streams, settings, snapshots } = this.dependencies;
    const stored = await snapshots.watermark(this.shard);
    if (stored === undefined) {
      // Written once, when the shard is first owned (1 = from the stream's
      // start, as no key): so the shard's Redis keys are fixed from now on, and
      // traffic that creates no actor (bogus commands) adds none.
      await snapshots.saveWatermark(this.shard, this.lease, 1);
    }
    let watermark = stored ?? 0;
    this.#savedWatermark = watermark;
    this.#highestDelivered = Math.max(0, watermark - 1);
    const catchUp = catchUpRange(watermark, this.resizeMarkerSeq);
    if (catchUp !== undefined) {
      watermark = await this.#catchUp(catchUp);
      // Drained or lost during the scan: no consumer for a worker that stopped.
      if (!this.#accepting) return;
    }
    const name = shardConsumerName(settings.prefix, this.shard);
    await jsm.consumers.delete(streams.inbox, name).catch(() => false);
    await jsm.consumers.add(streams.inbox, {
      durable_name: name,
      filter_subject: shardInboxFilter(this.shard),
      ack_policy: AckPolicy.Explicit,
      ack_wait: nanos(settings.ackWaitMs),
      max_ack_pending: settings.maxAckPendingPerShard,
      ...(watermark > 0
        ? { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: watermark }
        : { deliver_policy: DeliverPolicy.All }),
    });
    const consumer = await js.consumers.get(streams.inbox, name);
    this.#messages = await consumer.consume({
      max_messages: Math.min(128, settings.maxAckPendingPerShard),
      // A pull pending on a consumer leader that is lost (a JetStream server
      // died) is only noticed after two missed idle heartbeats
      // (half the expiry each), so the expiry bounds the stall after an election.
      expires: settings.pullExpiresMs,
    });
    this.#loop = this.#consume(this.#messages);
    for (const actor of await snapshots.dirtyActors(this.shard)) {
      this.#cellFor(actor)?.wake();
    }
  }

  /**
   * Dispatches this shard's messages below the marker (stream order, so each
   * actor's old messages are queued before any new one).
   *
   * @returns the sequence the shard's own consumer starts at: after the marker.
   */
  async #catchUp(range: { fromSeq: number; markerSeq: number }): Promise<number> {
    const { js, jsm, streams, settings, logger } = this.dependencies;
    let handed = 0;
    await scanForCatchUp({
      js,
      jsm,
      stream: streams.inbox,
      ...range,
      shard: this.shard,
      shardCount: settings.shardCount,
      onMessage: (message) => {
        handed += 1;
        this.#dispatch(message);
      },
      onSkipped: (seq) => (this.#highestDelivered = Math.max(this.#highestDelivered, seq)),
      signal: this.#stopAccepting.signal,
    });
    this.#highestDelivered = Math.max(this.#highestDelivered, range.markerSeq);
    logger.info(
      { shard: this.shard, ...range, handed },
      "shard caught up after a shard-count change",
    );
    return range.markerSeq + 1;
  }

  async #consume(messages: ConsumerMessages): Promise<void> {
    try {
      for await (const message of messages) {
        if (!this.#accepting) break;
        this.#dispatch(message);
      }
    } catch (error) {
      if (this.#accepting)
        this.dependencies.logger.error({ shard: this.shard, err: error }, "shard consumer failed");
    }
  }

  #dispatch(message: JsMsg): void {
    this.#outstanding.add(message.seq);
    this.#undelivered = message.info.pending;
    this.#highestDelivered = Math.max(this.#highestDelivered, message.seq);
    let address: ActorAddress;
    let parsed: { kind: string; id: string } | undefined;
    try {
      parsed = parseShardInboxSubject(message.subject);
      address = actorAddress(parsed.kind, parsed.id);
      if (!this.dependencies.kinds.has(address.kind)) {
        throw new InvalidAddressError(
          `no actor kind "${address.kind}" is registered on this host (known: ${[...this.dependencies.kinds.keys()].join(", ")})`,
          "kind",
          address.kind,
        );
      }
      const expectedShard = shardOf(address, this.dependencies.settings.shardCount);
      if (expectedShard !== this.shard) {
        // Only a publish straight to an internal shard subject can land here.
        throw new InvalidAddressError(
          `${message.subject} is shard ${this.shard}, but ${formatAddress(address)} belongs to shard ${expectedShard}; publish to ${inboxSubject(address)} instead`,
          "address",
          message.subject,
        );
      }
    } catch (error) {
      void this.#deadLetterUnroutable(message, parsed, error).catch((failure: unknown) =>
        this.dependencies.logger.error(
          { shard: this.shard, seq: message.seq, err: failure },
          "could not dead-letter an unroutable message",
        ),
      );
      return;
    }
    this.#cellFor(formatAddress(address), address)?.enqueue(message);
  }

  #cellFor(actor: string, known?: ActorAddress): ActorCell | undefined {
    let cell = this.#cells.get(actor);
    if (cell !== undefined) return cell;
    const [kind = "", id = ""] = actor.split("/");
    const address = known ?? { kind, id };
    const definition = this.dependencies.kinds.get(address.kind);
    if (definition === undefined) return undefined;
    cell = new ActorCell(address, definition, this.#cellDependencies);
    this.#cells.set(actor, cell);
    return cell;
  }

  async #deadLetterUnroutable(
    message: JsMsg,
    parsed: { kind: string; id: string } | undefined,
    error: unknown,
  ): Promise<void> {
    const troupeError = TroupeError.isInstance(error)
      ? error
      : new InvalidAddressError(
          `unroutable inbox subject ${message.subject}: ${String(error)}`,
          "address",
          message.subject,
        );
    const item = deadLetterItem({
      kind: parsed?.kind ?? "_invalid",
      id: parsed?.id ?? "_invalid",
      actor: undefined,
      message: {
        seq: message.seq,
        subject: message.subject,
        data: message.data,
        contentType: message.headers?.get(CONTENT_TYPE_HEADER) || undefined,
        timestampMs: Math.floor(Number(message.info.timestampNanos) / 1_000_000),
      },
      error: troupeError,
    });
    try {
      await this.dependencies.publisher.publish([item]);
      const kind = parsed !== undefined && this.dependencies.kinds.has(parsed.kind);
      this.dependencies.metrics.deadLettered(kind ? parsed.kind : "_unknown", troupeError.code);
      this.dependencies.logger.info(
        { shard: this.shard, seq: message.seq, reason: troupeError.message },
        "message dead-lettered",
      );
      this.complete(message);
    } catch (publishError) {
      this.dependencies.logger.error(
        { shard: this.shard, err: publishError },
        "could not dead-letter a message; it will be redelivered",
      );
    }
  }

  /** Writes the next generation under this worker's fencing token. */
  async commit(
    previous: ActorRecord | undefined,
    next: ActorRecord,
  ): Promise<Extract<CommitOutcome, "committed" | "conflict">> {
    const result = await this.dependencies.snapshots.commit({
      shard: this.shard,
      ...this.lease,
      previous,
      next,
      keepGenerations: this.dependencies.settings.keepGenerations,
      historyRetentionMs: this.dependencies.settings.historyRetentionMs,
    });
    if (result.outcome === "committed") {
      this.#writesFloor = Math.max(this.#writesFloor, result.writes);
      return "committed";
    }
    if (result.outcome === "fenced" || result.outcome === "writes_lost") {
      this.abort();
      this.onLeaseLost(this, result.outcome === "fenced" ? "lost" : "writes_lost");
      throw new LeaseLostError(this.shard, this.token);
    }
    return result.outcome;
  }

  /**
   * Starts an effect and tracks it until its result is delivered, so a drain can
   * wait for it. Not while draining or after the lease was lost: the next owner
   * starts it from the snapshot.
   */
  startEffect(address: ActorAddress, definition: ActorKindDefinition, effect: PendingEffect): void {
    if (!this.#accepting) return;
    const done = this.dependencies.effects.start(
      address,
      definition,
      effect,
      this.#effectsGiveUp.signal,
    );
    if (done === undefined || this.#runningEffects.has(done)) return;
    const tracked = done.then(
      () => undefined,
      (error: unknown) =>
        this.dependencies.logger.error(
          { shard: this.shard, effectId: effect.effectId, err: error },
          "effect ended with an error",
        ),
    );
    this.#runningEffects.set(done, tracked);
    void tracked.finally(() => this.#runningEffects.delete(done));
  }

  /** Effects started by this worker still running (or delivering their result). */
  get runningEffects(): number {
    return this.#runningEffects.size;
  }

  /**
   * Waits until every effect this worker started has ended and delivered its
   * result, or `timeoutMs` passed.
   *
   * @returns whether they all ended.
   */
  async effectsSettled(timeoutMs: number): Promise<boolean> {
    if (this.#runningEffects.size === 0) return true;
    const timeout = new AbortController();
    const done = await Promise.race([
      this.effectsDone().then(() => true),
      sleep(timeoutMs, false, { signal: timeout.signal }).catch(() => false),
    ]);
    timeout.abort();
    return done;
  }

  /** Resolves once every effect this worker started has ended and delivered its result. */
  async effectsDone(): Promise<void> {
    while (this.#runningEffects.size > 0) await Promise.all([...this.#runningEffects.values()]);
  }

  /**
   * Gives up the effects still running: their handlers' signals abort with
   * `reason`; they publish nothing and the next owner decides from its records.
   */
  giveUpEffects(reason: Error): void {
    const running = this.#runningEffects.size;
    if (running > 0 && !this.#effectsGiveUp.signal.aborted) {
      this.dependencies.logger.warn(
        { shard: this.shard, running, reason: reason.message },
        "giving up running effects",
      );
    }
    this.#effectsGiveUp.abort(reason);
  }

  /** Acks a processed message and moves the watermark. */
  complete(message: JsMsg): void {
    if (!(this.dependencies.settings.testFaults.dropFirstAck && !message.redelivered))
      message.ack();
    this.#outstanding.delete(message.seq);
  }

  /** Inbox sequence from which a new owner must read. */
  get watermark(): number {
    if (this.#outstanding.size === 0) return this.#highestDelivered + 1;
    let lowest = Number.POSITIVE_INFINITY;
    for (const seq of this.#outstanding) if (seq < lowest) lowest = seq;
    return lowest;
  }

  /**
   * Saves the watermark if it moved (fenced by the lease grant). Refused when
   * Redis lost commits of this grant (a watermark past them would skip their
   * messages): the shard then stops, as on a lost lease, and starts again from
   * the stored watermark (docs/decisions/0031).
   */
  async saveWatermark(): Promise<void> {
    const watermark = this.watermark;
    if (watermark <= this.#savedWatermark) return;
    const outcome = await this.dependencies.snapshots.saveWatermark(
      this.shard,
      this.lease,
      watermark,
    );
    if (outcome === "saved") this.#savedWatermark = watermark;
    else if (outcome === "writes_lost" && this.#accepting) {
      this.abort();
      this.onLeaseLost(this, "writes_lost");
    }
  }

  /**
   * Idle actors that may be passivated: nothing queued or running, no effect
   * running on this host.
   */
  passivationCandidates(): ActorCell[] {
    return [...this.#cells.values()].filter(
      (cell) => cell.idle && !this.dependencies.effects.hasRunning(cell.actor),
    );
  }

  /**
   * Passivates one idle actor: confirms its published outbox, then drops it from
   * memory — unless it is busy, has an unpublished outbox, or a message arrived
   * meanwhile.
   *
   * @returns whether the actor was dropped.
   */
  async passivate(cell: ActorCell): Promise<boolean> {
    if (!cell.idle) return false;
    const generation = cell.record?.generation;
    await this.#confirm(cell);
    if (!cell.idle || !cell.outboxConfirmed || cell.record?.generation !== generation) return false;
    if (this.#cells.get(cell.actor) !== cell) return false;
    this.#cells.delete(cell.actor);
    cell.passivated();
    this.dependencies.metrics.passivated(cell.address.kind);
    return true;
  }

  /**
   * Confirms, for every actor of the shard, an outbox this host has published, so
   * that a later activation elsewhere does not publish it again. The host calls
   * it on drain for every actor, and every housekeeping tick for outboxes
   * published before `publishedBeforeMs` — so an outbox a crash leaves
   * unconfirmed is always young enough for the stream's `Nats-Msg-Id` dedup
   * window to drop its re-publication.
   *
   * @param publishedBeforeMs - only outboxes published before this time (Unix ms).
   */
  async confirmPublished(publishedBeforeMs = Number.POSITIVE_INFINITY): Promise<void> {
    await Promise.all(
      [...this.#cells.values()]
        .filter((cell) => cell.publishedAtMs < publishedBeforeMs)
        .map((cell) => this.#confirm(cell)),
    );
  }

  async #confirm(cell: ActorCell): Promise<void> {
    const record = cell.confirmable;
    if (record === undefined) return;
    await this.dependencies.snapshots.confirmOutbox(this.shard, record);
    cell.markConfirmed(record.generation);
  }

  /**
   * Graceful stop (hand-over or shutdown): stop fetching, let each actor finish the
   * message it is processing, save the watermark, then let the running effects
   * finish and deliver their results (docs/decisions/0010) — all within `timeoutMs`;
   * effects still running then are given up ("shard handed over"). Messages
   * still queued are not acked; the next owner reads them from the watermark.
   * The caller releases the lease after this resolves.
   *
   * @param timeoutMs - longest wait for in-flight messages and running effects together.
   */
  async drain(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    this.#accepting = false;
    this.#stopAccepting.abort();
    await this.#messages?.close().catch(() => undefined);
    const settled = Promise.all([...this.#cells.values()].map((cell) => cell.settled()));
    const timeout = new AbortController();
    await Promise.race([
      settled,
      sleep(timeoutMs, undefined, { signal: timeout.signal }).catch(() => undefined),
    ]);
    timeout.abort();
    await this.saveWatermark().catch((error: unknown) =>
      this.dependencies.logger.warn(
        { shard: this.shard, err: error },
        "could not save the watermark",
      ),
    );
    // Every outbox published so far is confirmed, so the next owner does not
    // publish it again on activation (re-publication is for crashes only).
    await this.confirmPublished().catch((error: unknown) =>
      this.dependencies.logger.warn(
        { shard: this.shard, err: error },
        "could not confirm published outboxes",
      ),
    );
    if (!(await this.effectsSettled(Math.max(0, deadline - Date.now())))) {
      this.giveUpEffects(new Error("shard handed over"));
    }
    this.#abort.abort(new Error("shard handed over"));
    await this.#loop;
  }

  /**
   * Immediate stop after the lease was lost: no more writes, no watermark. Running
   * effects go on: their results are keyed by the effect, not the lease, and the
   * next owner reuses them (docs/decisions/0010); the host gives them up on stop.
   */
  abort(): void {
    if (!this.#accepting && this.#abort.signal.aborted) return;
    this.#accepting = false;
    this.#stopAccepting.abort();
    this.#abort.abort(new LeaseLostError(this.shard, this.token));
    void this.#messages?.close().catch(() => undefined);
  }

  /** Sleeps unless the worker stops accepting (drains or loses its lease) first. */
  async sleep(ms: number): Promise<void> {
    await sleep(ms, undefined, { signal: this.#stopAccepting.signal }).catch(() => undefined);
  }
}
