import {
  metrics,
  type Attributes,
  type Counter,
  type Histogram,
  type Meter,
  type ObservableResult,
} from "@opentelemetry/api";
import { ATTRIBUTES, METRICS, TELEMETRY_SCOPE } from "@troupe/protocol";

/**
 * Outcome of one inbox message on a host (`troupe.step.outcome`): the step's
 * outcome (`committed`, `skipped`, `not_created`, `refused`), or `rejected`
 * (dead-lettered, counted instead of `committed` / `not_created`), or
 * `conflict` (the snapshot moved under the host; the message is taken again).
 */
export type MessageOutcome =
  "committed" | "skipped" | "not_created" | "refused" | "rejected" | "conflict";

/** Outcome of one effect run on this host (`troupe.effect.outcome`). */
export type EffectOutcome = "completed" | "failed" | "cancelled" | "given_up";

/**
 * Why a host lost a shard's lease (`troupe.lease.loss_reason`): another grant
 * holds it (`lost`), Redis lost commits made under it (`writes_lost`), or it
 * was not renewed within its TTL (`expired`).
 */
export type LeaseLossMetricReason = "lost" | "writes_lost" | "expired";

/** What the host's observable gauges read, asked only when a metric reader collects. */
export interface HostMetricsSources {
  /** Shards this host owns now. */
  shardsOwned(): number;
  /**
   * Inbox lag of each owned shard: messages not yet delivered to the shard's
   * consumer (as of its last delivery) plus delivered ones not yet acked.
   */
  inboxLag(): Iterable<readonly [shard: number, lag: number]>;
  /** Durable timers armed in the owned shards (may read Redis; cached by the caller). */
  timersArmed(): Promise<number>;
  /** The event loop's delay over the latest window (ms); absent or undefined: not measured. */
  eventLoopDelay?():
    { readonly p50Ms: number; readonly p99Ms: number; readonly maxMs: number } | undefined;
}

/** Bucket bounds of `troupe.step.duration`, in seconds (1 ms … 10 s). */
export const STEP_DURATION_BUCKETS_S = [
  0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];

/** Bucket bounds of `troupe.effect.duration`, in seconds (10 ms … 5 min: model and tool calls). */
export const EFFECT_DURATION_BUCKETS_S = [
  0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300,
];

const MESSAGE_OUTCOMES: readonly MessageOutcome[] = [
  "committed",
  "skipped",
  "not_created",
  "refused",
  "rejected",
  "conflict",
];

/** Attribute objects of one actor kind, built once (the hot path allocates none). */
interface KindAttributes {
  readonly kind: Attributes;
  readonly outcomes: Readonly<Record<MessageOutcome, Attributes>>;
}

/**
 * The runtime's OpenTelemetry metrics (docs/decisions/0038): one instance per
 * `ActorHost`, its instruments created once from
 * `metrics.getMeter(TELEMETRY_SCOPE)`, named by `METRICS` of `@troupe/protocol`.
 * With no meter provider registered (the default) every call is a no-op of the
 * API; the observable gauges' callbacks never run. A process that wants them
 * (the CLI's `troupe host`) registers a provider **before** the host starts:
 * the API hands out no-op meters until then.
 *
 * Counters: `troupe.messages.processed` (kind, outcome), `troupe.commit.conflicts`
 * (kind), `troupe.lease.acquisitions`, `troupe.lease.losses` (reason),
 * `troupe.dead_letters` (kind, code), `troupe.actor.activations` /
 * `troupe.actor.passivations` (kind). Histograms in seconds:
 * `troupe.step.duration` (kind), `troupe.effect.duration` (effect name,
 * outcome). Gauges: `troupe.shards.owned`, `troupe.inbox.lag` (shard),
 * `troupe.timers.armed`, `nodejs.eventloop.delay.p50` / `.p99` / `.max`
 * (seconds, the latest 5 s window).
 */
export class HostMetrics {
  readonly #messagesProcessed: Counter;
  readonly #stepDuration: Histogram;
  readonly #commitConflicts: Counter;
  readonly #leaseAcquisitions: Counter;
  readonly #leaseLosses: Counter;
  readonly #effectDuration: Histogram;
  readonly #deadLetters: Counter;
  readonly #activations: Counter;
  readonly #passivations: Counter;
  readonly #kinds = new Map<string, KindAttributes>();
  readonly #effects = new Map<string, Readonly<Record<EffectOutcome, Attributes>>>();
  readonly #deadLetterAttributes = new Map<string, Attributes>();
  readonly #lossAttributes = new Map<string, Attributes>();
  readonly #shardAttributes: Attributes[] = [];
  readonly #empty: Attributes = {};

  /**
   * @param sources - what the gauges read (the host's shards, consumers and timers).
   * @param meter - default `metrics.getMeter(TELEMETRY_SCOPE)` of the global provider.
   */
  constructor(sources: HostMetricsSources, meter: Meter = metrics.getMeter(TELEMETRY_SCOPE)) {
    const counter = (definition: { name: string; unit: string }, description: string) =>
      meter.createCounter(definition.name, { unit: definition.unit, description });
    const histogram = (
      definition: { name: string; unit: string },
      description: string,
      explicitBucketBoundaries: number[],
    ) =>
      meter.createHistogram(definition.name, {
        unit: definition.unit,
        description,
        advice: { explicitBucketBoundaries },
      });
    this.#messagesProcessed = counter(
      METRICS.messagesProcessed,
      "Inbox messages processed, by actor kind and outcome",
    );
    this.#stepDuration = histogram(
      METRICS.stepDuration,
      "Time to process one inbox message: step, commit, outbox publish and ack",
      STEP_DURATION_BUCKETS_S,
    );
    this.#commitConflicts = counter(
      METRICS.commitConflicts,
      "Snapshot commits refused because the stored generation moved",
    );
    this.#leaseAcquisitions = counter(METRICS.leaseAcquisitions, "Shard leases acquired");
    this.#leaseLosses = counter(METRICS.leaseLosses, "Shard leases lost, by reason");
    this.#effectDuration = histogram(
      METRICS.effectDuration,
      "Effect handler runs, from start to result, by effect name and outcome",
      EFFECT_DURATION_BUCKETS_S,
    );
    this.#deadLetters = counter(METRICS.deadLetters, "Messages dead-lettered, by kind and code");
    this.#activations = counter(METRICS.activations, "Actors activated (loaded into memory)");
    this.#passivations = counter(METRICS.passivations, "Actors passivated (dropped from memory)");
    meter
      .createObservableGauge(METRICS.shardsOwned.name, {
        unit: METRICS.shardsOwned.unit,
        description: "Shards whose lease this host holds",
      })
      .addCallback((result) => result.observe(sources.shardsOwned()));
    meter
      .createObservableGauge(METRICS.inboxLag.name, {
        unit: METRICS.inboxLag.unit,
        description: "Messages of a shard's inbox not yet processed (undelivered + unacked)",
      })
      .addCallback((result: ObservableResult) => {
        for (const [shard, lag] of sources.inboxLag()) result.observe(lag, this.#shard(shard));
      });
    meter
      .createObservableGauge(METRICS.timersArmed.name, {
        unit: METRICS.timersArmed.unit,
        description: "Durable timers armed in the shards this host owns",
      })
      .addCallback(async (result) => result.observe(await sources.timersArmed()));
    const delayGauge = (
      definition: { name: string; unit: string },
      description: string,
      read: (delay: { p50Ms: number; p99Ms: number; maxMs: number }) => number,
    ) =>
      meter
        .createObservableGauge(definition.name, { unit: definition.unit, description })
        .addCallback((result) => {
          const delay = sources.eventLoopDelay?.();
          if (delay !== undefined) result.observe(read(delay) / 1000);
        });
    delayGauge(
      METRICS.eventLoopDelayP50,
      "Event loop delay, median of the latest window",
      (d) => d.p50Ms,
    );
    delayGauge(
      METRICS.eventLoopDelayP99,
      "Event loop delay, 99th percentile of the latest window",
      (d) => d.p99Ms,
    );
    delayGauge(
      METRICS.eventLoopDelayMax,
      "Event loop delay, largest of the latest window",
      (d) => d.maxMs,
    );
  }

  /**
   * Counts one inbox message and its processing time.
   *
   * @param kind - the actor kind.
   * @param outcome - what became of it.
   * @param seconds - processing time in seconds (omitted: not recorded).
   */
  messageProcessed(kind: string, outcome: MessageOutcome, seconds?: number): void {
    const attributes = this.#kind(kind);
    this.#messagesProcessed.add(1, attributes.outcomes[outcome]);
    if (outcome === "conflict") this.#commitConflicts.add(1, attributes.kind);
    if (seconds !== undefined) this.#stepDuration.record(seconds, attributes.kind);
  }

  /**
   * Counts one dead letter.
   *
   * @param kind - the addressed actor kind; `_unknown` for a kind this host does not run.
   * @param code - the error code (`TroupeError.code`).
   */
  deadLettered(kind: string, code: string): void {
    const key = `${kind}\u0000${code}`;
    let attributes = this.#deadLetterAttributes.get(key);
    if (attributes === undefined) {
      attributes = { [ATTRIBUTES.actorKind]: kind, [ATTRIBUTES.deadLetterCode]: code };
      this.#deadLetterAttributes.set(key, attributes);
    }
    this.#deadLetters.add(1, attributes);
  }

  /** Counts one effect run and its duration in seconds. */
  effectEnded(effect: string, outcome: EffectOutcome, seconds: number): void {
    let attributes = this.#effects.get(effect);
    if (attributes === undefined) {
      const of = (value: EffectOutcome): Attributes => ({
        [ATTRIBUTES.effectName]: effect,
        [ATTRIBUTES.effectOutcome]: value,
      });
      attributes = {
        completed: of("completed"),
        failed: of("failed"),
        cancelled: of("cancelled"),
        given_up: of("given_up"),
      };
      this.#effects.set(effect, attributes);
    }
    this.#effectDuration.record(seconds, attributes[outcome]);
  }

  /** Counts one shard lease acquired. */
  leaseAcquired(): void {
    this.#leaseAcquisitions.add(1, this.#empty);
  }

  /** Counts one shard lease lost. */
  leaseLost(reason: LeaseLossMetricReason): void {
    let attributes = this.#lossAttributes.get(reason);
    if (attributes === undefined) {
      attributes = { [ATTRIBUTES.leaseLossReason]: reason };
      this.#lossAttributes.set(reason, attributes);
    }
    this.#leaseLosses.add(1, attributes);
  }

  /** Counts one actor activated (its snapshot loaded). */
  activated(kind: string): void {
    this.#activations.add(1, this.#kind(kind).kind);
  }

  /** Counts one actor passivated. */
  passivated(kind: string): void {
    this.#passivations.add(1, this.#kind(kind).kind);
  }

  #kind(kind: string): KindAttributes {
    let attributes = this.#kinds.get(kind);
    if (attributes === undefined) {
      const outcomes = {} as Record<MessageOutcome, Attributes>;
      for (const outcome of MESSAGE_OUTCOMES)
        outcomes[outcome] = { [ATTRIBUTES.actorKind]: kind, [ATTRIBUTES.stepOutcome]: outcome };
      attributes = { kind: { [ATTRIBUTES.actorKind]: kind }, outcomes };
      this.#kinds.set(kind, attributes);
    }
    return attributes;
  }

  #shard(shard: number): Attributes {
    return (this.#shardAttributes[shard] ??= { [ATTRIBUTES.shard]: shard });
  }
}
