import { setTimeout as sleep } from "node:timers/promises";
import {
  jetstream,
  jetstreamManager,
  type JetStreamClient,
  type JetStreamManager,
} from "@nats-io/jetstream";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import {
  encodeMessage,
  inboxSubject,
  parseAddress,
  streamNames,
  type StreamNames,
  natsServerUrls,
  TroupeError,
} from "@troupe/protocol";
import { Redis } from "ioredis";
import { pino, type Logger } from "pino";
import {
  type Clock,
  systemClock,
  RedisKeyLayoutError,
  ShardCountChangingError,
  ShardCountMismatchError,
  type ActorKindDefinition,
  assertSupportedMachine,
} from "@troupe/step";
import {
  HostMetrics,
  type HostMetricsSources,
  type LeaseLossMetricReason,
} from "../observability/host-metrics.js";
import { RedisKeys } from "@troupe/protocol/internal";
import {
  RedisLeaseStore,
  RedisMembershipStore,
  redisRetryDelayMs,
  watchRedisConnection,
  type RedisConnection,
  RedisSnapshotStore,
} from "@troupe/stores/internal";
import { ensureStreams, type StreamReplication } from "../streams/ensure-streams.js";
import { EffectRunner } from "./effect-runner.js";
import { hostSettingsSchema, type HostSettings, type HostSettingsInput } from "./host-options.js";
import type { HostRuntime } from "./host-runtime.js";
import { OutboxPublisher } from "./outbox-publisher.js";
import { PriorityScheduler } from "./priority-scheduler.js";
import { MembershipSettling, planRebalance } from "./rebalance-plan.js";
import { mustHoldNoShard, readShardCountState } from "./shard-count-state.js";
import { ShardWorker } from "./shard-worker.js";
import { LeaseRenewalThread } from "./lease-renewal-thread.js";
import { EventLoopMonitor, type EventLoopDelay } from "../observability/event-loop-monitor.js";
import { UnroutableCapture } from "./unroutable-capture.js";
import { VersionRefusals, type VersionRefusalReport } from "./version-refusals.js";

/**
 * How long the `troupe.timers.armed` gauge reuses its Redis reading, in ms (docs/decisions/0038).
 */
const TIMERS_ARMED_CACHE_MS = 5_000;

/** Connections and names a kind factory may use (see `ActorHostOptions.kinds`). */
export interface HostServices {
  readonly nats: NatsConnection;
  readonly js: JetStreamClient;
  /** JetStream manager (stream info, direct reads of stored messages). */
  readonly jsm: JetStreamManager;
  readonly redis: RedisConnection;
  readonly streams: StreamNames;
  readonly keys: RedisKeys;
  readonly logger: Logger;
  /**
   * The deployment's stream replication, from the host settings
   * `streamReplicas` (1–5) and `streamPlacement` (decision 0032): for JetStream
   * assets a kind creates itself, such as the media Object Store, so
   * they are replicated like the streams. Unset outside a host (a replay).
   */
  readonly replication?: StreamReplication;
}

/** Counts of what an {@link ActorHost} holds in memory (see `ActorHost.retention`). */
export interface HostRetention {
  /** Activated actors (their cells: mailbox, latest snapshot, live xstate state). */
  readonly actorCells: number;
  /** Effect handlers running on this host. */
  readonly runningEffects: number;
  /** Shards owned. */
  readonly shards: number;
  /** Shards being drained and released. */
  readonly releasing: number;
  /** Workers whose lease was lost, kept until their running effects end. */
  readonly orphanWorkers: number;
}

/** How to start an {@link ActorHost}. */
export interface ActorHostOptions {
  /**
   * NATS seed URLs or an open connection: one URL (`nats://127.0.0.1:4222`),
   * several comma-separated (`nats://n1:4222,nats://n2:4222`) or a list; the
   * host connects to one and fails over to the others (docs/decisions/0032).
   */
  readonly nats: string | readonly string[] | NatsConnection;
  /**
   * Redis URL (e.g. `redis://127.0.0.1:6379`) or an open connection: a
   * `Redis` (one server, or a Sentinel-managed master) or a `Cluster` (docs/decisions/0031).
   */
  readonly redis: string | RedisConnection;
  /**
   * The actor kinds this host runs, or a function building them from the host's
   * connections (for kinds whose effects publish or read streams, such as
   * `agentKinds`).
   */
  readonly kinds:
    readonly ActorKindDefinition[] | ((services: HostServices) => readonly ActorKindDefinition[]);
  /** Host settings (see `hostSettingsSchema` for defaults). */
  readonly settings?: HostSettingsInput;
  /** Logger; defaults to pino at `TROUPE_LOG_LEVEL` (default `info`). */
  readonly logger?: Logger;
  /**
   * Where the host reads the time (lease deadlines, passivation, outbox
   * confirmation, timestamps of the timer and effect messages it writes);
   * default {@link systemClock}. Tests pass a `ManualClock` to drive it.
   */
  readonly clock?: Clock;
}

/**
 * Hosts xstate machines as virtual actors: leases its fair share of shards,
 * consumes their inboxes, runs the pure step for each message and commits
 * snapshots under the shard's fencing token; with the deployment's other hosts
 * it dead-letters publishes under `troupe.` that match no route
 * (`UnroutableCapture`) (../../README.md says what it
 * guarantees).
 *
 * @example
 * const host = await ActorHost.start({ nats: "nats://127.0.0.1:4222", redis: "redis://127.0.0.1:6379", kinds: [counter] });
 * process.once("SIGTERM", () => void host.stop());
 */
export class ActorHost {
  readonly #workers = new Map<number, ShardWorker>();
  /** Releases under way (drain, then lease release), by shard. */
  readonly #releasing = new Map<number, Promise<void>>();
  /** Workers whose lease was lost while their effects still run (docs/decisions/0010). */
  readonly #orphans = new Set<ShardWorker>();
  /** Stops the rebalance, timer and housekeeping loops. */
  readonly #stopping = new AbortController();
  /** Stops lease renewal: only once every drain on stop is done. */
  readonly #renewing = new AbortController();
  readonly #loops: Promise<void>[] = [];
  #renewLoop: Promise<void> | undefined;
  readonly #ownsConnections: { nats: boolean; redis: boolean };
  readonly #settling: MembershipSettling;
  /** Resolves after the first rebalance past the settling window (or on stop). */
  readonly #initialShare: { promise: Promise<void>; resolve: () => void };
  #members: string[] = [];
  #joinedBefore = false;
  #stopped: Promise<void> | undefined;
  #unroutable: UnroutableCapture | undefined;
  /** `<p>:deployment`: the shard count and the state of a change of it (docs/decisions/0035). */
  #deploymentKey = "";
  /** Marker sequence of the last shard-count change (decision 0035). */
  #resizeMarkerSeq: number | undefined;
  /** Whether the last rebalance found a shard-count change under way (or another count). */
  #holdingNoShard = false;
  /** Renews the leases off the event loop (docs/decisions/0047); undefined: renewed on it. */
  #renewalThread: LeaseRenewalThread | undefined;
  readonly #eventLoop: EventLoopMonitor;

  private constructor(
    private readonly runtime: HostRuntime,
    private readonly nats: NatsConnection,
    private readonly membership: RedisMembershipStore,
    ownsConnections: { nats: boolean; redis: boolean },
  ) {
    this.#ownsConnections = ownsConnections;
    let resolve = () => {};
    const promise = new Promise<void>((done) => (resolve = done));
    this.#initialShare = { promise, resolve };
    const { settings } = runtime;
    this.#settling = new MembershipSettling(
      settings.membershipSettleMs ?? settings.membershipTtlMs,
    );
    this.#eventLoop = new EventLoopMonitor({
      warnAboveMs: settings.leaseTtlMs / 4,
      logger: runtime.logger,
      context: { leaseTtlMs: settings.leaseTtlMs },
    });
  }

  /**
   * Checks every kind's machine, connects, creates the streams, checks the shard
   * count and starts leasing shards. Resolves once its initial share is settled:
   * after the membership settling window (`membershipSettleMs`, default
   * `membershipTtlMs`), the free shards of its fair share are acquired; shards
   * another host still serves come once that host has drained them (docs/decisions/0010).
   *
   * @param options - servers, kinds, settings, logger and clock.
   * @returns the running host.
   * @throws UnsupportedMachineActionError when a kind's machine uses an action or
   *   `invoke` the host cannot carry out (see `assertSupportedMachine`); a list
   *   of kinds is checked before connecting.
   * @throws ShardCountMismatchError when the deployment was created with another shard count.
   * @throws ShardCountChangingError when a change of the deployment's shard
   *   count is under way (`changeShardCount`).
   */
  static async start(options: ActorHostOptions): Promise<ActorHost> {
    const settings: HostSettings = hostSettingsSchema.parse(options.settings ?? {});
    if (typeof options.kinds !== "function") options.kinds.forEach(assertSupportedMachine);
    const logger = (
      options.logger ?? pino({ level: process.env.TROUPE_LOG_LEVEL ?? "info" })
    ).child({ hostId: settings.hostId });
    const ownsNats = typeof options.nats === "string" || Array.isArray(options.nats);
    const seeds = ownsNats ? natsServerUrls(options.nats as string | readonly string[]) : [];
    if (ownsNats && seeds.length === 0) {
      throw new TroupeError("invalid_options", "the host was given no NATS server URL");
    }
    const nats = ownsNats
      ? await connect({
          servers: seeds,
          name: settings.hostId,
          noAsyncTraces: true,
        })
      : (options.nats as NatsConnection);
    const redis =
      typeof options.redis === "string"
        ? new Redis(options.redis, {
            enableAutoPipelining: true,
            maxRetriesPerRequest: 2,
            retryStrategy: redisRetryDelayMs,
          })
        : options.redis;
    // ioredis reconnects by itself; without a listener each failed attempt would
    // print an "Unhandled error event" stack to stderr. One warn per outage.
    if (typeof options.redis === "string") watchRedisConnection(redis, logger, "host");
    const keys = new RedisKeys(settings.prefix, settings.shardCount);
    const membership = new RedisMembershipStore(redis, keys);
    const recorded = await membership.claimShardCount(settings.shardCount);
    const shardCountState = readShardCountState(await redis.hgetall(keys.deployment()));
    if (recorded !== settings.shardCount || shardCountState.resizeTo !== undefined) {
      if (ownsNats) await nats.close();
      if (typeof options.redis === "string") redis.disconnect();
      if (shardCountState.resizeTo !== undefined) {
        throw new ShardCountChangingError(
          recorded,
          shardCountState.resizeTo,
          "this host cannot start until it ends",
        );
      }
      throw new ShardCountMismatchError(settings.shardCount, recorded);
    }
    const legacyShards = await membership.claimKeyLayout(settings.shardCount);
    if (legacyShards.length > 0) {
      if (ownsNats) await nats.close();
      if (typeof options.redis === "string") redis.disconnect();
      throw new RedisKeyLayoutError(settings.prefix, legacyShards);
    }
    const jsm = await jetstreamManager(nats, { timeout: settings.jetStreamApiTimeoutMs });
    const streams = streamNames(settings.prefix);
    await ensureStreams(jsm, streams, settings);
    // The same deadline for the JetStream client's requests (publish acks,
    // the Object Store and KV views the kinds open) as for the manager's: a
    // cluster electing a leader answers late, not never.
    const js = jetstream(nats, { timeout: settings.jetStreamApiTimeoutMs });
    let kinds: readonly ActorKindDefinition[];
    if (typeof options.kinds === "function") {
      try {
        const replication: StreamReplication = {
          streamReplicas: settings.streamReplicas,
          streamPlacement: settings.streamPlacement,
        };
        kinds = options.kinds({ nats, js, jsm, redis, streams, keys, logger, replication });
        kinds.forEach(assertSupportedMachine);
      } catch (error) {
        if (ownsNats) await nats.close();
        if (typeof options.redis === "string") redis.disconnect();
        throw error;
      }
    } else {
      kinds = options.kinds;
    }
    const publisher = new OutboxPublisher(js);
    const scheduler = new PriorityScheduler({
      concurrency: settings.maxConcurrency,
      passOverLimit: settings.priorityPassOverLimit,
    });
    const clock = options.clock ?? systemClock;
    // The gauges read the host once it exists (only when a meter provider collects).
    let gauges: HostMetricsSources = {
      shardsOwned: () => 0,
      inboxLag: () => [],
      timersArmed: () => Promise.resolve(0),
      eventLoopDelay: () => undefined,
    };
    const hostMetrics = new HostMetrics({
      shardsOwned: () => gauges.shardsOwned(),
      inboxLag: () => gauges.inboxLag(),
      timersArmed: () => gauges.timersArmed(),
      eventLoopDelay: () => gauges.eventLoopDelay?.(),
    });
    const runtime: HostRuntime = {
      settings,
      js,
      jsm,
      redis,
      streams,
      snapshots: new RedisSnapshotStore(redis, keys),
      leases: new RedisLeaseStore(redis, keys),
      kinds: new Map(kinds.map((kind) => [kind.kind, kind])),
      publisher,
      effects: new EffectRunner(
        redis,
        keys,
        publisher,
        logger,
        clock,
        settings.maxPayloadBytes,
        hostMetrics,
      ),
      logger,
      clock,
      limit: (task, priority) => scheduler.run(task, priority),
      refusals: new VersionRefusals(
        settings.hostId,
        logger,
        clock,
        (subject, body) => nats.publish(subject, body),
        {
          save: (actor, record) => redis.hset(keys.refusedActors(), actor, JSON.stringify(record)),
          remove: (actor) => redis.hdel(keys.refusedActors(), actor),
        },
      ),
      metrics: hostMetrics,
    };
    const host = new ActorHost(runtime, nats, membership, {
      nats: ownsNats,
      redis: typeof options.redis === "string",
    });
    host.#deploymentKey = keys.deployment();
    gauges = host.#metricsSources(keys);
    // The thread reads the system clock: a host driven by a ManualClock renews on its loop.
    if (settings.leaseRenewal === "thread" && clock === systemClock) {
      host.#renewalThread = LeaseRenewalThread.start({
        redis,
        owner: settings.hostId,
        keys,
        ttlMs: settings.leaseTtlMs,
        intervalMs: settings.leaseRenewIntervalMs,
        maxEventLoopBlockMs: settings.maxEventLoopBlockMs,
        logger,
      });
    }
    host.#resizeMarkerSeq = shardCountState.markerSeq;
    host.#unroutable = UnroutableCapture.start(nats, js, {
      queue: `${settings.prefix}-unroutable`,
      logger,
      clock,
    });
    host.#startLoops();
    await host.#initialShare.promise;
    logger.info(
      {
        shardCount: settings.shardCount,
        kinds: [...runtime.kinds.keys()],
        members: host.#members.length,
        ownedShards: host.#workers.size,
      },
      "actor host started",
    );
    return host;
  }

  /** This host's id. */
  get hostId(): string {
    return this.runtime.settings.hostId;
  }

  /** Shards this host currently owns, ascending. */
  get ownedShards(): number[] {
    return [...this.#workers.keys()].sort((a, b) => a - b);
  }

  /**
   * Actors held in memory now, summed over the shards this host owns. Read-only,
   * for monitoring and tests: passivation keeps it at most `maxActiveActors`
   * (checked every 250 ms, so it may exceed the limit briefly while messages arrive).
   */
  get activeActorCount(): number {
    let count = 0;
    for (const worker of this.#workers.values()) count += worker.activeActors;
    return count;
  }

  /**
   * What the host holds in memory now, for monitoring and tests (docs/decisions/0015):
   * actor cells over the shards it owns, effects running (on those shards and
   * on shards whose lease it lost), shards it owns, releases under way and
   * workers kept only for their running effects. With nothing in flight and
   * every actor passivated, all but `shards` are 0: nothing per actor outlives
   * its passivation.
   */
  get retention(): HostRetention {
    return {
      actorCells: this.activeActorCount,
      runningEffects: this.runtime.effects.runningCount,
      shards: this.#workers.size,
      releasing: this.#releasing.size,
      orphanWorkers: this.#orphans.size,
    };
  }

  /**
   * Actors this host refuses to process because their snapshot was written by a
   * machine version it cannot read (docs/decisions/0022): `total`
   * refused attempts since start (one per actor per back-off window of 1 s →
   * 30 s, not per message) and the actors refused now, with the stored and the
   * host's version and how many messages wait. Each attempt is also logged at
   * error level and published on `_troupe.alert.version.<kind>.<id>`.
   */
  get versionRefusals(): VersionRefusalReport {
    return this.runtime.refusals.report;
  }

  /** Live hosts at the last heartbeat. */
  get members(): readonly string[] {
    return this.#members;
  }

  /**
   * The event loop's delay over the latest window of 5 s (p50, p99, max, in
   * ms), as the `nodejs.eventloop.delay.*` gauges read it, and whether
   * its max passed a quarter of `leaseTtlMs` (`delayed`: `/readyz` answers 503
   * `stalled` then, and the host logged a warning).
   */
  get eventLoopDelay(): EventLoopDelay & { readonly delayed: boolean } {
    return { ...this.#eventLoop.last, delayed: this.#eventLoop.delayed };
  }

  /** Where this host renews its leases now: `thread` (off the event loop) or `main`. */
  get leaseRenewal(): "thread" | "main" {
    return this.#renewalThread?.alive === true ? "thread" : "main";
  }

  /**
   * True from the moment `stop()` is called (draining: no new messages are
   * fetched, in-flight ones finish, leases are released) until the process
   * ends; a health endpoint reports such a host as not ready (docs/decisions/0034).
   */
  get draining(): boolean {
    return this.#stopped !== undefined;
  }

  /**
   * Graceful shutdown: leave the membership, stop fetching, finish in-flight
   * messages, let running effects finish and deliver their results (within
   * `drainTimeoutMs`), save watermarks and release every lease
   * (renewed until then), so other hosts take over without waiting for the TTL;
   * then close connections it opened.
   */
  stop(): Promise<void> {
    this.#stopped ??= this.#stop();
    return this.#stopped;
  }

  async #stop(): Promise<void> {
    const { logger, settings } = this.runtime;
    logger.info("actor host stopping");
    this.#stopping.abort();
    this.#unroutable?.stop();
    this.#initialShare.resolve();
    await Promise.allSettled(this.#loops);
    await this.membership.leave(settings.hostId).catch(() => undefined);
    for (const worker of this.#workers.values()) if (worker.accepting) this.#startRelease(worker);
    await Promise.allSettled([
      ...this.#releases(),
      ...[...this.#orphans].map(async (orphan) => {
        if (!(await orphan.effectsSettled(settings.drainTimeoutMs))) {
          orphan.giveUpEffects(new Error("host stopped"));
        }
      }),
    ]);
    this.#renewing.abort();
    await this.#renewLoop;
    await this.#renewalThread?.stop();
    this.#eventLoop.stop();
    for (const kind of this.runtime.kinds.values()) {
      await kind.dispose?.().catch((error: unknown) => {
        logger.warn({ err: error, kind: kind.kind }, "an actor kind's dispose failed");
      });
    }
    if (this.#ownsConnections.nats) await this.nats.drain().catch(() => undefined);
    if (this.#ownsConnections.redis) await this.runtime.redis.quit().catch(() => undefined);
    logger.info("actor host stopped");
  }

  #startLoops(): void {
    const { settings } = this.runtime;
    this.#eventLoop.start();
    const stopping = this.#stopping.signal;
    this.#loops.push(
      this.#every(settings.rebalanceIntervalMs, () => this.#rebalance(), stopping),
      this.#every(settings.timerPollIntervalMs, () => this.#fireTimers(), stopping),
      this.#every(250, () => this.#housekeeping(), stopping),
    );
    this.#renewLoop = this.#every(
      settings.leaseRenewIntervalMs,
      () => this.#renew(),
      this.#renewing.signal,
    );
  }

  /** Releases under way (a settled snapshot of the map). */
  #releases(): Promise<void>[] {
    return [...this.#releasing.values()];
  }

  async #every(intervalMs: number, tick: () => Promise<void>, signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      try {
        await tick();
      } catch (error) {
        if (signal.aborted) {
          // stopping: nothing to report
        } else if (this.runtime.redis.status !== "ready") {
          // Redis is down: watchRedisConnection reported the outage once.
          this.runtime.logger.debug({ err: error }, "host loop tick failed while Redis is down");
        } else {
          this.runtime.logger.warn({ err: error }, "host loop tick failed");
        }
      }
      await sleep(intervalMs, undefined, { signal }).catch(() => undefined);
    }
  }

  async #rebalance(): Promise<void> {
    const { settings, logger } = this.runtime;
    const { hosts, wasMember } = await this.membership.heartbeat(
      settings.hostId,
      settings.membershipTtlMs,
    );
    this.#members = hosts;
    const settling = this.#settling.observe(performance.now(), wasMember);
    if (!wasMember && this.#joinedBefore) {
      logger.info(
        { settleMs: settings.membershipSettleMs ?? settings.membershipTtlMs, members: hosts },
        "membership record had lapsed; letting the membership settle before acquiring shards",
      );
    }
    this.#joinedBefore = true;
    if (await this.#mustHoldNoShard()) {
      for (const worker of this.#workers.values()) if (worker.accepting) this.#startRelease(worker);
      if (!settling) this.#initialShare.resolve();
      return;
    }
    const plan = planRebalance({
      shardCount: settings.shardCount,
      hostId: settings.hostId,
      members: hosts,
      held: new Set(this.#workers.keys()),
      releasing: new Set(
        [...this.#workers.values()]
          .filter((worker) => !worker.accepting)
          .map((worker) => worker.shard),
      ),
      settling,
    });
    // Releases drain in the background (up to drainTimeoutMs): the heartbeat and
    // the rest of the rebalance must go on meanwhile.
    for (const shard of plan.release) {
      const worker = this.#workers.get(shard);
      if (worker !== undefined) this.#startRelease(worker);
    }
    await Promise.all(plan.acquire.map((shard) => this.#acquire(shard)));
    if (!settling) this.#initialShare.resolve();
  }

  /**
   * Reads the deployment's shard-count state (decision 0035): while a
   * change is under way, or once the deployment has another count than this
   * host, the host holds no shard. Logged once per change of that answer.
   */
  async #mustHoldNoShard(): Promise<boolean> {
    const { settings, logger, redis } = this.runtime;
    const state = readShardCountState(await redis.hgetall(this.#deploymentKey));
    this.#resizeMarkerSeq = state.markerSeq;
    const hold = mustHoldNoShard(state, settings.shardCount);
    if (hold !== this.#holdingNoShard) {
      this.#holdingNoShard = hold;
      if (!hold) logger.info({ shardCount: settings.shardCount }, "shards may be acquired again");
      else if (state.resizeTo !== undefined)
        logger.warn(
          { from: state.shardCount, to: state.resizeTo },
          "the deployment's shard count is being changed; releasing every shard until it ends",
        );
      else
        logger.error(
          { shardCount: settings.shardCount, deploymentShardCount: state.shardCount },
          `the deployment now has ${state.shardCount} shards; this host (shardCount ${settings.shardCount}) holds none: restart it with shardCount ${state.shardCount}`,
        );
    }
    return hold;
  }

  async #acquire(shard: number): Promise<void> {
    const { settings, leases, logger } = this.runtime;
    if (this.#releasing.has(shard)) return;
    const token = await leases.acquire(shard, settings.hostId, settings.leaseTtlMs);
    if (token === undefined) return;
    if (this.#stopping.signal.aborted) {
      // `stop()` began while the lease was being acquired: hand it back at once
      // rather than leave it to lapse (the next owner would wait up to leaseTtlMs).
      await leases.release(shard, settings.hostId, token).catch(() => undefined);
      return;
    }
    const started = new ShardWorker(
      shard,
      token,
      this.runtime,
      (lost, reason) => this.#onLeaseLost(lost, reason),
      this.#resizeMarkerSeq,
    );
    this.#workers.set(shard, started);
    this.#renewedAt.set(shard, this.runtime.clock.now());
    this.#renewalThread?.hold(shard, token);
    try {
      await started.start();
      this.runtime.metrics.leaseAcquired();
      logger.debug({ shard, token }, "shard acquired");
    } catch (error) {
      logger.warn({ shard, err: error }, "could not start shard; releasing it");
      started.abort();
      this.#workers.delete(shard);
      this.#renewalThread?.drop(shard);
      await leases.release(shard, settings.hostId, token).catch(() => undefined);
    }
  }

  #startRelease(worker: ShardWorker): void {
    if (this.#releasing.has(worker.shard)) return;
    const release = this.#release(worker)
      .catch((error: unknown) =>
        this.runtime.logger.warn({ shard: worker.shard, err: error }, "shard release failed"),
      )
      .finally(() => {
        if (this.#releasing.get(worker.shard) === release) this.#releasing.delete(worker.shard);
      });
    this.#releasing.set(worker.shard, release);
  }

  readonly #renewedAt = new Map<number, number>();

  async #release(worker: ShardWorker): Promise<void> {
    const { settings, leases, logger } = this.runtime;
    await worker.drain(settings.drainTimeoutMs);
    await leases.release(worker.shard, settings.hostId, worker.token).catch(() => undefined);
    this.#forget(worker);
    logger.debug({ shard: worker.shard }, "shard released");
  }

  /** The host holds `worker`'s shard no more (released or lost): nothing renews it. */
  #forget(worker: ShardWorker): void {
    if (this.#workers.get(worker.shard) === worker) {
      this.#workers.delete(worker.shard);
      this.#renewalThread?.drop(worker.shard);
    }
    this.#renewedAt.delete(worker.shard);
  }

  #onLeaseLost(worker: ShardWorker, reason: LeaseLossMetricReason = "lost"): void {
    this.runtime.metrics.leaseLost(reason);
    this.#forget(worker);
    if (reason === "writes_lost") {
      // Redis lost commits made under this grant (a failover to a replica that
      // had not received them, or an AOF that lost its last writes): the actors
      // in memory are ahead of Redis. Give the lease back so that the shard
      // starts again (here or elsewhere) from the stored watermark, which the
      // stored snapshots reflect: the lost steps are taken again from the
      // journal (decision 0031).
      const { settings, leases, logger } = this.runtime;
      logger.warn(
        { shard: worker.shard, token: worker.token, writesFloor: worker.writesFloor },
        "Redis lost commits of this shard (failover or crash); restarting the shard from its watermark",
      );
      void leases.release(worker.shard, settings.hostId, worker.token).catch(() => undefined);
    }
    // Its effects go on and record their results; stop() waits for them.
    if (worker.runningEffects > 0 && !this.#orphans.has(worker)) {
      this.#orphans.add(worker);
      void worker.effectsDone().finally(() => this.#orphans.delete(worker));
    }
    this.runtime.logger.warn(
      { shard: worker.shard, token: worker.token, runningEffects: worker.runningEffects },
      "lease lost; stopped processing the shard (its running effects go on)",
    );
  }

  async #renew(): Promise<void> {
    const { settings, leases, clock } = this.runtime;
    const workers = [...this.#workers.values()].filter((worker) => !worker.signal.aborted);
    const thread = this.#renewalThread;
    if (thread?.alive === true) {
      // The thread renews (decision 0047): publish the heartbeat and floors, read its verdicts.
      thread.heartbeat(workers);
      for (const worker of workers) {
        const verdict = thread.verdict(worker.shard, worker.token);
        if (verdict !== "held") this.#loseLease(worker, verdict);
      }
      this.#checkLeaseDeadlines();
      return;
    }
    const startedAt = clock.now();
    try {
      const renewals = await leases.renew(
        settings.hostId,
        workers.map((worker) => ({
          shard: worker.shard,
          token: worker.token,
          writesFloor: worker.writesFloor,
        })),
        settings.leaseTtlMs,
      );
      workers.forEach((worker, index) => {
        const renewal = renewals[index];
        if (renewal === "held") this.#renewedAt.set(worker.shard, startedAt);
        else this.#loseLease(worker, renewal === "writes_lost" ? "writes_lost" : "lost");
      });
    } finally {
      this.#checkLeaseDeadlines();
    }
  }

  #loseLease(worker: ShardWorker, reason: LeaseLossMetricReason = "lost"): void {
    worker.abort();
    this.#onLeaseLost(worker, reason);
  }

  /** A lease not renewed within its TTL (measured from the renewal request) is treated as lost at once. */
  #checkLeaseDeadlines(): void {
    const now = this.runtime.clock.now();
    for (const worker of this.#workers.values()) {
      const renewedAt = Math.max(
        this.#renewedAt.get(worker.shard) ?? 0,
        this.#renewalThread?.renewedAt(worker.shard, worker.token) ?? 0,
      );
      if (now - renewedAt > this.runtime.settings.leaseTtlMs) this.#loseLease(worker, "expired");
    }
  }

  /**
   * What the host's gauges read (docs/decisions/0038): shards owned and each one's inbox
   * lag from memory; timers armed by one `ZCARD` per owned shard (pipelined),
   * at most once per `TIMERS_ARMED_CACHE_MS`, whatever the scrape rate.
   */
  #metricsSources(keys: RedisKeys): HostMetricsSources {
    let timers = { value: 0, readAtMs: Number.NEGATIVE_INFINITY };
    let reading: Promise<number> | undefined;
    const readTimers = async () => {
      const counts = await Promise.all(
        this.ownedShards.map((shard) => this.runtime.redis.zcard(keys.timers(shard))),
      );
      timers = {
        value: counts.reduce((sum, count) => sum + count, 0),
        readAtMs: performance.now(),
      };
      return timers.value;
    };
    return {
      eventLoopDelay: () => this.#eventLoop.last,
      shardsOwned: () => this.#workers.size,
      inboxLag: () =>
        [...this.#workers.values()].map((worker) => [worker.shard, worker.inboxLag] as const),
      timersArmed: async () => {
        if (performance.now() - timers.readAtMs < TIMERS_ARMED_CACHE_MS) return timers.value;
        reading ??= readTimers()
          .catch(() => timers.value)
          .finally(() => (reading = undefined));
        return reading;
      },
    };
  }

  async #fireTimers(): Promise<void> {
    this.#checkLeaseDeadlines();
    const shards = [...this.#workers.values()]
      .filter((worker) => worker.accepting)
      .map((worker) => worker.shard);
    // A simulated stream-time offset (tests) moves "now" for timers too.
    const due = await this.runtime.snapshots.dueTimers(
      shards,
      500,
      this.runtime.settings.simulatedStreamTimeOffsetMs,
    );
    if (due.length === 0) return;
    await this.runtime.publisher.publish(
      due.map(({ address, timer, dueAtMs = timer.deadlineMs }) => {
        // A timer re-armed after an early firing fires again under another
        // message id (the first is in the stream's duplicate window).
        const again = dueAtMs > timer.deadlineMs ? `:${dueAtMs}` : "";
        const id = `${address}:timer:${timer.timerId}:${timer.deadlineMs}${again}`;
        // How far a test clock moved it forward (advanceDurableTimers lowers scores).
        const advancedMs = Math.max(0, timer.deadlineMs - dueAtMs);
        const encoded = encodeMessage({
          v: 1,
          id,
          type: "timer.fired",
          payload: {
            timerId: timer.timerId,
            deadlineMs: timer.deadlineMs,
            ...(advancedMs > 0 ? { advancedMs } : {}),
          },
          meta: { actor: address, timestampMs: this.runtime.clock.now() },
        });
        return {
          subject: inboxSubject(parseAddress(address)),
          messageId: id,
          contentType: encoded.contentType,
          body: encoded.bytes,
        };
      }),
    );
    await this.runtime.snapshots.removeTimers(due);
  }

  async #housekeeping(): Promise<void> {
    const { settings, clock } = this.runtime;
    const workers = [...this.#workers.values()].filter((worker) => worker.accepting);
    await Promise.all(workers.map((worker) => worker.saveWatermark()));
    // Outboxes published more than a tenth of the dedup window ago are confirmed.
    const publishedBefore = clock.now() - settings.duplicateWindowMs / 10;
    await Promise.all(workers.map((worker) => worker.confirmPublished(publishedBefore)));
    // Idle actors past passivateAfterMs go; then, while over maxActiveActors, the
    // least recently used idle ones.
    const idleBefore = clock.now() - settings.passivateAfterMs;
    const candidates = workers
      .flatMap((worker) => worker.passivationCandidates().map((cell) => ({ worker, cell })))
      .sort((a, b) => a.cell.lastUsedMs - b.cell.lastUsedMs);
    let active = workers.reduce((sum, worker) => sum + worker.activeActors, 0);
    for (const { worker, cell } of candidates) {
      if (cell.lastUsedMs > idleBefore && active <= settings.maxActiveActors) break;
      if (await worker.passivate(cell)) active -= 1;
    }
  }
}
