import type { JsMsg } from "@nats-io/jetstream";
import { type Span, SpanKind, SpanStatusCode, context, trace } from "@opentelemetry/api";
import {
  ATTRIBUTES,
  type ActorAddress,
  CONTENT_TYPE_HEADER,
  PRIORITY_HEADER,
  type PriorityClass,
  SPAN_NAMES,
  formatAddress,
  priorityFromHeader,
  traceCarrierFromHeaders,
  type TroupeError,
} from "@troupe/protocol";
import type { Logger } from "pino";
import {
  type Clock,
  type UnknownMachineVersionError,
  type ActorKindDefinition,
  type ActorRecord,
  type OutboxItem,
  type PendingEffect,
  processMessage,
  type InboxMessage,
  type LiveState,
  readStoredState,
} from "@troupe/step/internal";
import type { HostMetrics, MessageOutcome } from "../observability/host-metrics.js";
import type { CommitOutcome, SnapshotStore } from "@troupe/stores/internal";
import type { EffectRunner } from "./effect-runner.js";
import { Mailbox } from "./mailbox.js";
import type { OutboxPublisher } from "./outbox-publisher.js";
import { carrierOfSpan, contextOfCarrier, failSpan, hostTracer } from "./trace-context.js";
import type { VersionRefusals } from "./version-refusals.js";

/** Pause before retrying a message after a transient failure, in ms (doubles up to 2 s). */
const RETRY_BASE_MS = 50;

/**
 * Back-off before the next attempt at an actor whose snapshot this host cannot
 * read (docs/decisions/0022): 1 s after the first refusal, doubling, at most 30 s.
 *
 * @param refusals - refused attempts in a row, from 1.
 * @returns the pause in ms.
 */
export function refusalBackoffMs(refusals: number): number {
  return Math.min(30_000, 1000 * 2 ** Math.min(Math.max(refusals - 1, 0), 5));
}

/**
 * What an {@link ActorCell} needs from its shard: the calls that depend on the
 * shard's lease and consumer. `ShardWorker` provides them.
 */
export interface ActorCellShard {
  /** False once the shard drains or lost its lease: the cell stops taking messages. */
  accepting(): boolean;
  /**
   * Writes `next` under the shard's fencing token.
   *
   * @returns "committed", or "conflict" when the stored generation moved.
   * @throws LeaseLostError when the token is no longer the shard's (the shard stops).
   */
  commit(
    previous: ActorRecord | undefined,
    next: ActorRecord,
  ): Promise<Extract<CommitOutcome, "committed" | "conflict">>;
  /** Acks a processed message and moves the shard's watermark. */
  complete(message: JsMsg): void;
  /** Starts an effect tied to the shard's lifetime. */
  startEffect(address: ActorAddress, definition: ActorKindDefinition, effect: PendingEffect): void;
  /** Waits `ms` (real time), or less when the shard stops accepting first. */
  sleep(ms: number): Promise<void>;
  /**
   * Puts a timer that fired early back into the shard's timer set, due at
   * `dueAtMs` (the timer store's clock).
   */
  rearmTimer(
    address: string,
    timer: { readonly timerId: string; readonly deadlineMs: number },
    dueAtMs: number,
  ): Promise<void>;
}

/** The collaborators of an {@link ActorCell}, shared by the cells of one shard. */
export interface ActorCellDependencies {
  /** Reads the actor's latest generation on activation. */
  readonly snapshots: Pick<SnapshotStore, "load">;
  /** Publishes outboxes (after commit, and again on activation when unconfirmed). */
  readonly publisher: Pick<OutboxPublisher, "publish">;
  /** Cancels effects and answers cancelled ones that no longer run. */
  readonly effects: Pick<EffectRunner, "cancel" | "deliverCancelled" | "hasRunningEffect">;
  /** Runs a task within the host's `maxConcurrency`, by scheduling class (docs/decisions/0057). */
  readonly limit: <T>(task: () => Promise<T>, priority?: PriorityClass) => Promise<T>;
  readonly logger: Logger;
  /** Largest accepted message body, in bytes (the host's `maxPayloadBytes`). */
  readonly maxPayloadBytes: number;
  /** Added to each message's stream time (`simulatedStreamTimeOffsetMs`; 0 but in simulations), ms. */
  readonly streamTimeOffsetMs?: number;
  /** Source of `lastUsedMs` and `publishedAtMs`. */
  readonly clock: Clock;
  /** Where refused attempts are counted, logged and alerted (docs/decisions/0022). */
  readonly refusals: Pick<VersionRefusals, "refused" | "resolved">;
  /** Counts messages, conflicts, dead letters and activations (docs/decisions/0038). */
  readonly metrics: Pick<HostMetrics, "messageProcessed" | "deadLettered" | "activated">;
  readonly shard: ActorCellShard;
}

/**
 * One activated actor on this host: its mailbox (messages in inbox order) and its
 * latest snapshot. Processes one message at a time: pure step → fenced commit →
 * publish outbox → start effects → ack (docs/design.md, "Processing
 * one message").
 *
 * When the step refuses (a snapshot of a machine version this host cannot
 * read) the message stays at the head of the mailbox, un-acked and
 * not dead-lettered, and so do the ones behind it; the cell reports the refusal
 * (`VersionRefusals`: error log and alert) and tries again after
 * {@link refusalBackoffMs} (1 s → 30 s), reloading the snapshot, until the
 * shard leaves this host. Redeliveries of a waiting message replace its queued
 * copy instead of piling up.
 */
export class ActorCell {
  readonly actor: string;
  readonly #queue = new Mailbox();
  /** Set while this host refuses the actor (docs/decisions/0022). */
  #refused = false;
  #busy: Promise<void> | undefined;
  #record: ActorRecord | undefined;
  #live: LiveState | undefined;
  #activated = false;
  #outboxConfirmed = true;
  /** Generation whose outbox this host has published (acked by the stream). */
  #publishedGeneration = 0;
  /** When that outbox was published (Unix ms, by the host's clock). */
  publishedAtMs = 0;
  /** When the cell last finished processing (Unix ms, by the host's clock). */
  lastUsedMs: number;
  readonly #shard: ActorCellShard;

  /**
   * @param address - the actor.
   * @param definition - its kind.
   * @param dependencies - stores, publisher, effects and shard callbacks.
   */
  constructor(
    readonly address: ActorAddress,
    private readonly definition: ActorKindDefinition,
    private readonly dependencies: ActorCellDependencies,
  ) {
    this.actor = formatAddress(address);
    this.#shard = dependencies.shard;
    this.lastUsedMs = dependencies.clock.now();
  }

  /** True while nothing is queued or running. */
  get idle(): boolean {
    return this.#busy === undefined && this.#queue.length === 0;
  }

  /**
   * The latest snapshot known to this host, its outbox left out (undefined
   * before activation or for a new actor).
   */
  get record(): ActorRecord | undefined {
    return this.#record;
  }

  /** Whether the latest outbox was published and confirmed in the store. */
  get outboxConfirmed(): boolean {
    return this.#outboxConfirmed;
  }

  /**
   * The latest record when its outbox has been published but not yet confirmed
   * in the store; undefined otherwise (nothing to confirm, or not published —
   * e.g. the publish failed and the next activation must publish it again).
   */
  get confirmable(): ActorRecord | undefined {
    const record = this.#record;
    if (record === undefined || this.#outboxConfirmed) return undefined;
    return this.#publishedGeneration === record.generation ? record : undefined;
  }

  /**
   * Marks the outbox of `generation` confirmed (after
   * {@link SnapshotStore.confirmOutbox}); ignored if a newer generation exists.
   */
  markConfirmed(generation: number): void {
    if (this.#record?.generation === generation) this.#outboxConfirmed = true;
  }

  /** Queues a delivered message (a redelivery of a waiting one replaces it, see `Mailbox`). */
  enqueue(message: JsMsg): void {
    if (this.#queue.push(message)) this.#pump();
  }

  /** Activates the actor without a message (resumes effects, republishes its outbox). */
  wake(): void {
    this.#pump();
  }

  /** Resolves when the message being processed (if any) is done. */
  async settled(): Promise<void> {
    await this.#busy;
  }

  #pump(): void {
    if (this.#busy !== undefined) return;
    this.#busy = this.#drain()
      .catch((error: unknown) => {
        // #drain handles its own failures; this keeps a bug from becoming an
        // unhandled rejection (a host exit) — the cell is pumped again on the next message.
        this.#activated = false;
        this.dependencies.logger.error({ actor: this.actor, err: error }, "actor cell failed");
      })
      .finally(() => {
        this.#busy = undefined;
        this.lastUsedMs = this.dependencies.clock.now();
        if (this.#queue.length > 0 && this.#shard.accepting()) this.#pump();
      });
  }

  async #drain(): Promise<void> {
    try {
      await this.#drainQueue();
    } finally {
      if (this.#refused && !this.#shard.accepting()) {
        this.#refused = false;
        this.dependencies.refusals.resolved(this.actor, "released");
      }
    }
  }

  async #drainQueue(): Promise<void> {
    let failures = 0;
    let refusals = 0;
    while (this.#shard.accepting()) {
      const message = this.#queue.head;
      if (this.#activated && message === undefined) return;
      let refusal: UnknownMachineVersionError | undefined;
      try {
        refusal = await this.dependencies.limit(async () => {
          const unreadable = this.#activated ? undefined : await this.#activate();
          if (message === undefined) return unreadable;
          return this.#queue.inHand(message, () => this.#handle(message));
        }, priorityOf(message));
        failures = 0;
      } catch (error) {
        if (!this.#shard.accepting()) return;
        failures += 1;
        this.#activated = false;
        this.dependencies.logger.warn(
          { actor: this.actor, err: error, failures },
          "processing failed; retrying",
        );
        await this.#shard.sleep(Math.min(2000, RETRY_BASE_MS * 2 ** Math.min(failures, 6)));
        continue;
      }
      if (refusal !== undefined) {
        // Nothing acked, nothing dead-lettered: the message waits.
        refusals += 1;
        const nextRetryInMs = refusalBackoffMs(refusals);
        this.#refused = true;
        this.#activated = false; // the next attempt reloads the snapshot
        this.dependencies.refusals.refused({
          address: this.address,
          error: refusal,
          seq: message?.seq,
          waitingMessages: this.#queue.length,
          nextRetryInMs,
        });
        if (message === undefined) return; // a wake: nothing waits yet
        await this.#shard.sleep(nextRetryInMs);
        continue;
      }
      if (message !== undefined) this.#queue.shift();
      if (this.#refused) {
        this.#refused = false;
        refusals = 0;
        this.dependencies.refusals.resolved(this.actor, "processed");
      }
    }
  }

  /**
   * Loads the latest generation, publishes its unconfirmed outbox again and
   * resumes its effects — unless this host cannot read the snapshot: then its
   * effects are left to a host that can (their inputs are the other version's).
   *
   * @returns the refusal when the snapshot cannot be read, else undefined.
   */
  async #activate(): Promise<UnknownMachineVersionError | undefined> {
    const { snapshots, publisher, effects, clock } = this.dependencies;
    const stored = await snapshots.load(this.actor);
    this.#record = withoutOutbox(stored?.record);
    this.#live = undefined;
    this.#outboxConfirmed = stored?.outboxConfirmed ?? true;
    if (stored !== undefined && !stored.outboxConfirmed) {
      await publisher.publish(stored.record.outbox);
      this.#published(stored.record.outbox);
    }
    this.#publishedGeneration = stored?.record.generation ?? 0;
    this.publishedAtMs = clock.now();
    const readable = readStoredState(stored?.record, this.definition);
    if (!readable.readable) {
      this.#activated = true;
      return readable.error;
    }
    this.dependencies.metrics.activated(this.address.kind);
    for (const effect of stored?.record.effects ?? []) {
      if (effect.cancelled === true) {
        if (!effects.hasRunningEffect(this.address, effect.effectId)) {
          await effects.deliverCancelled(this.address, effect);
        }
      } else {
        this.#shard.startEffect(this.address, this.definition, effect);
      }
    }
    this.#activated = true;
    return undefined;
  }

  /** Tells the kind the actor left memory (`ActorKindDefinition.onPassivated`); never throws. */
  passivated(): void {
    if (this.#refused) {
      this.#refused = false;
      this.dependencies.refusals.resolved(this.actor, "released");
    }
    try {
      this.definition.onPassivated?.(this.address);
    } catch (error) {
      this.dependencies.logger.warn(
        { actor: this.actor, err: error },
        "onPassivated threw; ignored",
      );
    }
  }

  /** Tells the kind its items are stored (`ActorKindDefinition.onOutboxPublished`); never throws. */
  #published(items: readonly OutboxItem[]): void {
    if (this.definition.onOutboxPublished === undefined || items.length === 0) return;
    try {
      this.definition.onOutboxPublished(items);
    } catch (error) {
      this.dependencies.logger.warn(
        { actor: this.actor, err: error },
        "onOutboxPublished threw; ignored",
      );
    }
  }

  #logRejection(seq: number, rejection: TroupeError): void {
    this.dependencies.logger.info(
      { actor: this.actor, seq, code: rejection.code, reason: rejection.message },
      "message rejected",
    );
  }

  /**
   * Processes one message inside a CONSUMER span `process <kind>` (docs/decisions/0036),
   * child of the message's `traceparent`: active while the step, commit and
   * publish run (logs carry its ids), its context stamped on what the step
   * produces.
   *
   * @returns the refusal when the step refused (nothing acked), else undefined.
   */
  async #handle(message: JsMsg): Promise<UnknownMachineVersionError | undefined> {
    const parent = contextOfCarrier(
      traceCarrierFromHeaders((name) => message.headers?.get(name) || undefined),
    );
    const span = hostTracer().startSpan(
      SPAN_NAMES.process(this.address.kind),
      {
        kind: SpanKind.CONSUMER,
        attributes: {
          [ATTRIBUTES.messagingSystem]: "nats",
          [ATTRIBUTES.messagingOperationType]: "process",
          [ATTRIBUTES.messagingDestination]: message.subject,
          [ATTRIBUTES.actorKind]: this.address.kind,
          [ATTRIBUTES.actorId]: this.address.id,
          [ATTRIBUTES.inboxSeq]: message.seq,
        },
      },
      parent,
    );
    const startedAt = performance.now();
    this.#outcome = undefined;
    try {
      return await context.with(trace.setSpan(parent, span), () => this.#step(message, span));
    } catch (error) {
      failSpan(span, error);
      throw error;
    } finally {
      // One outcome for the span and the metrics.
      if (this.#outcome !== undefined) span.setAttribute(ATTRIBUTES.stepOutcome, this.#outcome);
      span.end();
      // A message whose processing failed for another reason than a conflict
      // (a transient error, retried and logged) is not counted.
      if (this.#outcome !== undefined)
        this.dependencies.metrics.messageProcessed(
          this.address.kind,
          this.#outcome,
          (performance.now() - startedAt) / 1000,
        );
    }
  }

  /** What became of the message {@link #step} handles; set once that is settled. */
  #outcome: MessageOutcome | undefined;

  #countRejection(rejection: TroupeError | undefined): void {
    if (rejection !== undefined)
      this.dependencies.metrics.deadLettered(this.address.kind, rejection.code);
  }

  async #step(message: JsMsg, span: Span): Promise<UnknownMachineVersionError | undefined> {
    const { publisher, effects, clock } = this.dependencies;
    const inbox: InboxMessage = {
      seq: message.seq,
      subject: message.subject,
      data: message.data,
      contentType: message.headers?.get(CONTENT_TYPE_HEADER) || undefined,
      timestampMs:
        Math.floor(Number(message.info.timestampNanos) / 1_000_000) +
        (this.dependencies.streamTimeOffsetMs ?? 0),
      trace: carrierOfSpan(span),
      priority: priorityOf(message),
    };
    const result = processMessage(this.#record, inbox, {
      definition: this.definition,
      address: this.address,
      maxPayloadBytes: this.dependencies.maxPayloadBytes,
      live: this.#live,
    });
    const rejection = result.outcome === "refused" ? result.error : stepRejection(result);
    if (rejection !== undefined) {
      span.setAttribute(ATTRIBUTES.errorType, rejection.code);
      span.setStatus({ code: SpanStatusCode.ERROR, message: rejection.message.slice(0, 500) });
    }
    if (result.outcome === "refused") {
      this.#outcome = "refused";
      return result.error;
    }
    if (result.outcome === "skipped") {
      if (result.early !== undefined) {
        // Put back before the ack: a crash in between redelivers the early firing.
        const { timerId, deadlineMs, earlyByMs, rearmAtMs } = result.early;
        await this.#shard.rearmTimer(this.actor, { timerId, deadlineMs }, rearmAtMs);
        this.dependencies.logger.warn(
          { actor: this.actor, timerId, deadlineMs, earlyByMs },
          "timer fired before its deadline by stream time (the timer store's clock is ahead); re-armed",
        );
      }
      this.#shard.complete(message);
      this.#outcome = "skipped";
      return undefined;
    }
    if (result.outcome === "not_created") {
      // Nothing to store: publish the answer (dedup ids derived from
      // the inbox sequence, so a redelivery after a failed ack is stored once)
      // and ack. The actor stays without a record.
      if (result.rejection !== undefined) this.#logRejection(message.seq, result.rejection);
      await publisher.publish(result.outbox);
      this.#shard.complete(message);
      this.#countRejection(result.rejection);
      this.#outcome = result.rejection === undefined ? "not_created" : "rejected";
      return undefined;
    }
    span.setAttribute(ATTRIBUTES.generation, result.record.generation);
    const outcome = await this.#shard.commit(this.#record, result.record);
    if (outcome === "conflict") {
      this.#outcome = "conflict";
      throw new Error(`snapshot of ${this.actor} moved under this host; reloading`);
    }
    this.#record = withoutOutbox(result.record);
    this.#live = result.live;
    this.#outboxConfirmed = false;
    if (result.rejection !== undefined) this.#logRejection(message.seq, result.rejection);
    if (result.effectFailedBy !== undefined) {
      this.dependencies.logger.warn(
        {
          actor: this.actor,
          seq: message.seq,
          code: result.effectFailedBy.code,
          reason: result.effectFailedBy.message,
        },
        "effect result could not be applied; the machine took effect.failed instead",
      );
    }
    await publisher.publish(result.record.outbox);
    this.#published(result.record.outbox);
    this.#publishedGeneration = result.record.generation;
    this.publishedAtMs = clock.now();
    for (const effect of result.effectsStarted) {
      this.#shard.startEffect(this.address, this.definition, effect);
    }
    for (const effectId of result.effectsCancelled) {
      effects.cancel(this.address, effectId);
    }
    this.#shard.complete(message);
    this.#countRejection(result.rejection ?? result.effectFailedBy);
    this.#outcome = result.rejection === undefined ? "committed" : "rejected";
    return undefined;
  }
}

/** The rejection a step result carries (dead-lettered message), if any. */
function stepRejection(result: ReturnType<typeof processMessage>): TroupeError | undefined {
  if (result.outcome === "committed") return result.rejection;
  if (result.outcome === "not_created") return result.rejection;
  return undefined;
}

/**
 * The record as a cell keeps it: without its outbox, which is published right
 * after the commit and read from the store again after a failure. The step
 * never reads the previous outbox, and outbox bodies may be views into larger
 * buffers (msgpack encoders reuse theirs), so keeping them would hold
 * kilobytes per idle actor (docs/decisions/0015).
 */
function withoutOutbox(record: ActorRecord | undefined): ActorRecord | undefined {
  return record === undefined || record.outbox.length === 0 ? record : { ...record, outbox: [] };
}

/** The scheduling class of an inbox message: its `Troupe-Priority` header (docs/decisions/0057). */
function priorityOf(message: JsMsg | undefined): PriorityClass | undefined {
  return priorityFromHeader(message?.headers?.get(PRIORITY_HEADER) || undefined);
}
