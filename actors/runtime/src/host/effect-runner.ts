import { setTimeout as sleep } from "node:timers/promises";
import { type Span, SpanKind, SpanStatusCode, context, trace } from "@opentelemetry/api";
import {
  ATTRIBUTES,
  type ActorAddress,
  DEFAULT_MAX_PAYLOAD_BYTES,
  SPAN_NAMES,
  type TraceCarrier,
  formatAddress,
  toWireError,
} from "@troupe/protocol";
import type { RedisConnection } from "@troupe/stores";
import type { Logger } from "pino";
import {
  type Clock,
  type ActorKindDefinition,
  type PendingEffect,
  EffectCancelledError,
  type EffectResult,
  effectResultItem,
  effectWireError,
} from "@troupe/step/internal";
import type { EffectOutcome, HostMetrics } from "../observability/host-metrics.js";
import type { RedisKeys } from "@troupe/protocol/internal";
import type { OutboxPublisher } from "./outbox-publisher.js";
import { carrierOfSpan, contextOfCarrier, hostTracer } from "./trace-context.js";

/**
 * Runs effect handlers and delivers each result as a message into the requesting
 * actor's own inbox (`effect.completed` / `effect.failed`), so the result is
 * journaled like any input. At-least-once: the same request may run again after a
 * crash; its result message has the `Nats-Msg-Id` `<address>:fx:<effectId>`.
 *
 * A handler aborted because the host gave the effect up (a drain that timed out)
 * publishes nothing: the new owner resumes the effect. A graceful hand-over and a
 * lost lease do not abort handlers: they finish and deliver (docs/decisions/0010).
 *
 * Whatever a handler returns or throws, the host keeps running: a
 * result over `maxPayloadBytes` or one that cannot be encoded is delivered as
 * `effect.failed` (`payload_too_large` / `internal`) instead, a thrown value of
 * any kind becomes `effect.failed`, and the promise of every running effect has
 * a last-resort `catch` that logs.
 */
export class EffectRunner {
  readonly #running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  readonly #runningPerActor = new Map<string, number>();

  /**
   * @param redis - holds the host-run counter of each effect (`RedisKeys.effectRun`).
   * @param keys - the deployment's Redis keys.
   * @param publisher - publishes results into the inbox.
   * @param logger - for failed effects and retried deliveries.
   * @param clock - timestamps of the result messages (`meta.timestampMs`).
   * @param maxPayloadBytes - largest result message, in bytes (the host's
   *   `maxPayloadBytes`; default 1 MiB); a larger result is delivered as
   *   `effect.failed` code `payload_too_large`.
   * @param metrics - counts each run's duration and outcome
   *   (docs/decisions/0038); none when absent.
   */
  constructor(
    private readonly redis: RedisConnection,
    private readonly keys: RedisKeys,
    private readonly publisher: OutboxPublisher,
    private readonly logger: Logger,
    private readonly clock: Clock,
    private readonly maxPayloadBytes: number = DEFAULT_MAX_PAYLOAD_BYTES,
    private readonly metrics?: Pick<HostMetrics, "effectEnded">,
  ) {}

  /** Whether an effect of `address` is running on this host. */
  hasRunning(address: string): boolean {
    return (this.#runningPerActor.get(address) ?? 0) > 0;
  }

  /**
   * Aborts a running effect because its actor cancelled it: the handler's signal
   * is aborted with an {@link EffectCancelledError}, and whatever it returns (or
   * throws) is still delivered. No-op when the effect does not run here.
   */
  cancel(address: ActorAddress, effectId: string): void {
    this.#running
      .get(`${formatAddress(address)}#${effectId}`)
      ?.controller.abort(new EffectCancelledError(effectId));
  }

  /**
   * Answers a cancelled effect that is no longer running (after a crash): delivers
   * `effect.failed` with code `cancelled` at once instead of running it again.
   */
  async deliverCancelled(address: ActorAddress, effect: PendingEffect): Promise<void> {
    await this.#deliver(
      address,
      effect,
      {
        type: "effect.failed",
        payload: {
          effectId: effect.effectId,
          error: toWireError(new EffectCancelledError(effect.effectId)),
        },
      },
      effect.trace,
    );
  }

  /** Whether one given effect of `address` is running on this host. */
  hasRunningEffect(address: ActorAddress, effectId: string): boolean {
    return this.#isRunning(`${formatAddress(address)}#${effectId}`);
  }

  #isRunning(key: string): boolean {
    const running = this.#running.get(key);
    return running !== undefined && !running.controller.signal.aborted;
  }

  /** Number of effects running on this host. */
  get runningCount(): number {
    return this.#running.size;
  }

  /**
   * Starts an effect unless it already runs on this host.
   *
   * @param address - requesting actor.
   * @param definition - its kind (for the handler).
   * @param effect - the pending request.
   * @param giveUpSignal - aborted when the host gives the effect up (a shard drain
   *   that timed out); its reason becomes the handler's signal's reason.
   * @returns settles once the effect ended and its result is delivered (or it was
   *   given up) — the one already running when it runs here; undefined when
   *   `giveUpSignal` is aborted already (docs/decisions/0010).
   */
  start(
    address: ActorAddress,
    definition: ActorKindDefinition,
    effect: PendingEffect,
    giveUpSignal: AbortSignal,
  ): Promise<void> | undefined {
    const actor = formatAddress(address);
    const key = `${actor}#${effect.effectId}`;
    // An entry whose signal is aborted was given up; when the shard comes back to
    // this host, the effect starts afresh.
    const running = this.#running.get(key);
    if (running !== undefined && !running.controller.signal.aborted) return running.done;
    if (giveUpSignal.aborted) return undefined;
    const controller = new AbortController();
    const onAbort = () => controller.abort(giveUpSignal.reason as unknown);
    giveUpSignal.addEventListener("abort", onAbort, { once: true });
    this.#runningPerActor.set(actor, (this.#runningPerActor.get(actor) ?? 0) + 1);
    const done = this.#run(address, definition, effect, controller.signal)
      .catch((error: unknown) => {
        // #run answers every outcome itself; reaching here is a bug, never a host exit.
        this.logger.error(
          { actor, effect: effect.effect, effectId: effect.effectId, err: error },
          "effect runner failed; the effect runs again when the actor is next activated",
        );
      })
      .finally(() => {
        giveUpSignal.removeEventListener("abort", onAbort);
        if (this.#running.get(key)?.controller === controller) this.#running.delete(key);
        const left = (this.#runningPerActor.get(actor) ?? 1) - 1;
        if (left > 0) this.#runningPerActor.set(actor, left);
        else this.#runningPerActor.delete(actor);
      });
    this.#running.set(key, { controller, done });
    return done;
  }

  /**
   * Runs the effect inside an INTERNAL span `effect <name>` (docs/decisions/0036), child
   * of the trace context stored with the pending effect (`PendingEffect.trace`:
   * the step that asked for it, on whichever host runs it, also after a crash),
   * active while the handler runs so the handler's own spans are its children;
   * the result message carries the span's context.
   */
  async #run(
    address: ActorAddress,
    definition: ActorKindDefinition,
    effect: PendingEffect,
    signal: AbortSignal,
  ): Promise<void> {
    const parent = contextOfCarrier(effect.trace);
    const span = hostTracer().startSpan(
      SPAN_NAMES.effect(effect.effect),
      {
        kind: SpanKind.INTERNAL,
        attributes: {
          [ATTRIBUTES.effectName]: effect.effect,
          [ATTRIBUTES.effectId]: effect.effectId,
          [ATTRIBUTES.actorKind]: address.kind,
          [ATTRIBUTES.actorId]: address.id,
        },
      },
      parent,
    );
    try {
      await context.with(trace.setSpan(parent, span), () =>
        this.#runInSpan(address, definition, effect, signal, span),
      );
    } finally {
      span.end();
    }
  }

  async #runInSpan(
    address: ActorAddress,
    definition: ActorKindDefinition,
    effect: PendingEffect,
    signal: AbortSignal,
    span: Span,
  ): Promise<void> {
    const startedAt = performance.now();
    // One outcome for the span and the metrics.
    const ended = (outcome: EffectOutcome) => {
      span.setAttribute(ATTRIBUTES.effectOutcome, outcome);
      this.metrics?.effectEnded(effect.effect, outcome, (performance.now() - startedAt) / 1000);
    };
    const actor = formatAddress(address);
    const hostRunKey = this.keys.effectRun(actor, effect.effectId);
    let result: EffectResult;
    try {
      // Counted only when the handler asks: most never do.
      let counted: Promise<number> | undefined;
      const hostRun = () =>
        (counted ??= this.redis.incr(hostRunKey).then((count) => {
          void this.redis.pexpire(hostRunKey, 7 * 24 * 3600 * 1000).catch(() => undefined);
          return count;
        }));
      const handler = definition.effects?.[effect.effect];
      if (handler === undefined) {
        throw new Error(
          `no effect handler named "${effect.effect}" is registered for kind "${definition.kind}"`,
        );
      }
      const output = await handler(effect.input, {
        signal,
        address,
        effectId: effect.effectId,
        hostRun,
      });
      result = {
        type: "effect.completed",
        payload: { effectId: effect.effectId, output: output ?? null },
      };
    } catch (error) {
      if (signal.aborted && !EffectCancelledError.isInstance(signal.reason)) {
        ended("given_up");
        return;
      }
      const wireError = effectWireError(error);
      span.setAttribute(ATTRIBUTES.errorType, wireError.code);
      span.setStatus({ code: SpanStatusCode.ERROR, message: wireError.message.slice(0, 500) });
      // An expected failure (a typed error other than `internal`: a provider's
      // 4xx, a missing key, a timeout) is one line; its stack only at debug
      // level. An unexpected one (a bug) keeps its stack at warn.
      // (Decided on the wire error only: `error` may be a hostile value whose
      // every property access throws; effectWireError is safe against it.)
      const expected = wireError.code !== "internal";
      const where = { actor, effect: effect.effect, effectId: effect.effectId };
      this.logger.warn(
        {
          ...where,
          error: wireError,
          ...(isPlainError(error) && !expected ? { err: error } : {}),
        },
        "effect failed",
      );
      if (expected && isPlainError(error)) {
        this.logger.debug({ ...where, err: error }, "effect failed: stack");
      }
      result = { type: "effect.failed", payload: { effectId: effect.effectId, error: wireError } };
    }
    if (signal.aborted && !EffectCancelledError.isInstance(signal.reason)) {
      ended("given_up");
      return;
    }
    ended(
      result.type === "effect.completed"
        ? "completed"
        : EffectCancelledError.isInstance(signal.reason)
          ? "cancelled"
          : "failed",
    );
    await this.#deliver(address, effect, result, carrierOfSpan(span), signal);
  }

  async #deliver(
    address: ActorAddress,
    effect: PendingEffect,
    result: EffectResult,
    traceCarrier: TraceCarrier | undefined,
    signal?: AbortSignal,
  ): Promise<void> {
    const actor = formatAddress(address);
    const { item, replacedBy } = effectResultItem({
      address,
      effect,
      result,
      timestampMs: this.clock.now(),
      maxPayloadBytes: this.maxPayloadBytes,
      trace: traceCarrier,
    });
    if (replacedBy !== undefined) {
      this.logger.warn(
        { actor, effect: effect.effect, effectId: effect.effectId, code: replacedBy.code },
        `effect result not sendable; delivered as effect.failed: ${replacedBy.message}`,
      );
    }
    // The result is the actor's only way forward: retry (same Nats-Msg-Id) until
    // it is stored or the host gives the shard up (the next owner re-runs the effect).
    for (let tries = 1; ; tries += 1) {
      try {
        await this.publisher.publish([item]);
        return;
      } catch (error) {
        if (signal?.aborted === true && !EffectCancelledError.isInstance(signal.reason)) return;
        this.logger.warn(
          { actor, effectId: effect.effectId, tries, err: error },
          "could not deliver an effect result; retrying",
        );
        await sleep(Math.min(2000, 50 * 2 ** Math.min(tries, 6)));
      }
    }
  }
}

/** Whether `value` is an Error that can be logged (false for anything that throws when inspected). */
function isPlainError(value: unknown): value is Error {
  try {
    return value instanceof Error && typeof value.message === "string";
  } catch {
    return false;
  }
}
