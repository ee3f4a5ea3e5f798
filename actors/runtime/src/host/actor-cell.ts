import type { JsMsg } from "@nats-io/jetstream";
import { type ActorAddress, CONTENT_TYPE_HEADER, formatAddress } from "@troupe/protocol";
import type { ActorKindDefinition } from "../registry/actor-kind.js";
import type { ActorRecord } from "../step/actor-record.js";
import { processMessage, type InboxMessage, type LiveState } from "../step/process-message.js";
import type { ShardWorker } from "./shard-worker.js";

/** Pause before retrying a message after a transient failure, in ms (doubles up to 2 s). */
const RETRY_BASE_MS = 50;

/**
 * One activated actor on this host: its mailbox (messages in inbox order) and its
 * latest snapshot. Processes one message at a time: pure step → fenced commit →
 * publish outbox → start effects → ack (docs/design.md, "Processing
 * one message").
 */
export class ActorCell {
  readonly actor: string;
  readonly #queue: JsMsg[] = [];
  #busy: Promise<void> | undefined;
  #record: ActorRecord | undefined;
  #live: LiveState | undefined;
  #activated = false;
  #outboxConfirmed = true;
  /** Generation whose outbox this host has published (acked by the stream). */
  #publishedGeneration = 0;
  /** When that outbox was published (Unix ms). */
  publishedAtMs = 0;
  lastUsedMs = Date.now();

  constructor(
    readonly address: ActorAddress,
    private readonly definition: ActorKindDefinition,
    private readonly worker: ShardWorker,
  ) {
    this.actor = formatAddress(address);
  }

  /** True while nothing is queued or running. */
  get idle(): boolean {
    return this.#busy === undefined && this.#queue.length === 0;
  }

  /** The latest snapshot known to this host (undefined before activation or for a new actor). */
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

  /** Queues a delivered message. */
  enqueue(message: JsMsg): void {
    this.#queue.push(message);
    this.#pump();
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
    this.#busy = this.#drain().finally(() => {
      this.#busy = undefined;
      this.lastUsedMs = Date.now();
      if (this.#queue.length > 0 && this.worker.accepting) this.#pump();
    });
  }

  async #drain(): Promise<void> {
    let failures = 0;
    while (this.worker.accepting) {
      const message = this.#queue[0];
      if (this.#activated && message === undefined) return;
      try {
        await this.worker.runtime.limit(async () => {
          if (!this.#activated) await this.#activate();
          if (message !== undefined) await this.#handle(message);
        });
        if (message !== undefined) this.#queue.shift();
        failures = 0;
      } catch (error) {
        if (!this.worker.accepting) return;
        failures += 1;
        this.#activated = false;
        this.worker.runtime.logger.warn(
          { actor: this.actor, err: error, failures },
          "processing failed; retrying",
        );
        await this.worker.sleep(Math.min(2000, RETRY_BASE_MS * 2 ** Math.min(failures, 6)));
      }
    }
  }

  async #activate(): Promise<void> {
    const stored = await this.worker.runtime.snapshots.load(this.actor);
    this.#record = stored?.record;
    this.#live = undefined;
    this.#outboxConfirmed = stored?.outboxConfirmed ?? true;
    if (stored !== undefined && !stored.outboxConfirmed) {
      await this.worker.runtime.publisher.publish(stored.record.outbox);
    }
    this.#publishedGeneration = stored?.record.generation ?? 0;
    this.publishedAtMs = Date.now();
    for (const effect of stored?.record.effects ?? []) {
      if (effect.cancelled === true) {
        if (!this.worker.runtime.effects.hasRunningEffect(this.address, effect.effectId)) {
          await this.worker.runtime.effects.deliverCancelled(this.address, effect);
        }
      } else {
        this.worker.startEffect(this.address, this.definition, effect);
      }
    }
    this.#activated = true;
  }

  async #handle(message: JsMsg): Promise<void> {
    const inbox: InboxMessage = {
      seq: message.seq,
      subject: message.subject,
      data: message.data,
      contentType: message.headers?.get(CONTENT_TYPE_HEADER) || undefined,
      timestampMs: Math.floor(Number(message.info.timestampNanos) / 1_000_000),
    };
    const result = processMessage(this.#record, inbox, {
      definition: this.definition,
      address: this.address,
      maxPayloadBytes: this.worker.runtime.settings.maxPayloadBytes,
      live: this.#live,
    });
    if (result.outcome === "skipped") {
      this.worker.complete(message);
      return;
    }
    const outcome = await this.worker.commit(this.#record, result.record);
    if (outcome === "conflict")
      throw new Error(`snapshot of ${this.actor} moved under this host; reloading`);
    this.#record = result.record;
    this.#live = result.live;
    this.#outboxConfirmed = false;
    if (result.rejection !== undefined) {
      this.worker.runtime.logger.info(
        {
          actor: this.actor,
          seq: message.seq,
          code: result.rejection.code,
          reason: result.rejection.message,
        },
        "message rejected",
      );
    }
    await this.worker.runtime.publisher.publish(result.record.outbox);
    this.#publishedGeneration = result.record.generation;
    this.publishedAtMs = Date.now();
    for (const effect of result.effectsStarted) {
      this.worker.startEffect(this.address, this.definition, effect);
    }
    for (const effectId of result.effectsCancelled) {
      this.worker.runtime.effects.cancel(this.address, effectId);
    }
    this.worker.complete(message);
  }
}
