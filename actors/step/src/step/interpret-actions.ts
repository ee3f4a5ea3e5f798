import {
  type ActorAddress,
  DEFAULT_MAX_PAYLOAD_BYTES,
  PayloadTooLargeError,
  encodeEvent,
  encodeMessage,
  eventSubject,
  formatAddress,
  inboxSubject,
  parseAddress,
  transcriptSubject,
  APPEND_ACTION,
  CANCEL_EFFECT_ACTION,
  EFFECT_ACTION,
  EMIT_ACTION,
  SEND_ACTION,
  type AppendParams,
  type CancelEffectParams,
  type EffectRequestParams,
  type EmitEventParams,
  type SendMessageParams,
} from "@troupe/protocol";
import type { OutboxItem, PendingEffect, PendingTimer } from "./actor-record.js";
import { encodeTranscriptEntry } from "@troupe/protocol";
import { UnsupportedMachineActionError } from "../errors/unsupported-machine-action-error.js";
import { unsupportedActionReason } from "../registry/machine-action-support.js";

/** An action object as returned by xstate's pure `transition()`. */
export interface MachineAction {
  readonly type: string;
  readonly params?: unknown;
}

/** What a transition asked of the host, turned into data. */
export interface InterpretedActions {
  readonly outbox: OutboxItem[];
  readonly effects: PendingEffect[];
  readonly timersArmed: PendingTimer[];
  readonly timersCancelled: string[];
  /** Effects the machine asked to abort (`troupe.cancelEffect`). */
  readonly effectsCancelled: string[];
  readonly eventSeq: number;
}

/** Inputs that make the interpretation deterministic. */
export interface InterpretContext {
  readonly address: ActorAddress;
  /** Whose event subjects the actor publishes on. */
  readonly eventAddress: ActorAddress;
  /** Inbox sequence of the message being processed (ids derive from it). */
  readonly inboxSeq: number;
  /** Stream time of the message, Unix ms: "now" for timers and event timestamps. */
  readonly nowMs: number;
  /** Id of the message being processed (causation id of everything it causes). */
  readonly causationId: string;
  readonly correlationId: string | undefined;
  /** Last event sequence before this transition. */
  readonly eventSeq: number;
  /**
   * Largest outbox item (event, message, transcript entry), in bytes; default
   * the protocol's 1 MiB. The host passes its `maxPayloadBytes`.
   */
  readonly maxPayloadBytes?: number | undefined;
  /**
   * Publish events as transient (`meta.seq` 0, `meta.transient`), with ids
   * `<actor>:ev:in.<inboxSeq>.<n>`: for an actor the message did not create
   * (docs/decisions/0013), whose event sequence does not move.
   */
  readonly transientEvents?: boolean;
}

/**
 * Whether an action asks for nothing but events (or for nothing the host
 * does): an emit, a log, an immediate raise. Messages, transcript entries,
 * effects and timers all need a stored record.
 *
 * @param action - an action from `transition()`.
 */
export function isEventOnlyAction(action: MachineAction): boolean {
  switch (action.type) {
    case SEND_ACTION:
    case APPEND_ACTION:
    case EFFECT_ACTION:
    case CANCEL_EFFECT_ACTION:
    case "xstate.cancel":
      return false;
    case "xstate.raise":
      return (action.params as { delay?: unknown } | undefined)?.delay === undefined;
    default:
      return true;
  }
}

/**
 * Turns xstate action objects into outbox items, effect requests and timer
 * changes. Pure: ids derive from the actor address, the inbox sequence and the
 * action index, so a replay produces byte-identical results.
 *
 * Understood: `xstate.emit` (event), `xstate.raise` with a delay (`after` or a
 * delayed raise: durable timer), `xstate.cancel` (cancels a timer), and the
 * `troupe.*` host actions. An immediate `xstate.raise` was already processed by
 * xstate and `xstate.log` is a side effect the host does not run: both pass.
 * Anything else (`sendTo`, `spawnChild`, `stopChild`, custom or inline actions,
 * typically enqueued by `enqueueActions`, where registration cannot see them)
 * is refused, never dropped.
 *
 * @param actions - actions from `initialTransition` / `transition`, in order.
 * @param context - deterministic inputs.
 * @returns the outbox, effects and timer changes.
 * @throws UnsupportedMachineActionError for an action the host cannot carry out
 *   (`processMessage` then rejects the message: dead letter, state untouched).
 * @throws PayloadTooLargeError when one event, message or transcript entry
 *   encodes to more than `context.maxPayloadBytes` (nothing
 *   unsendable reaches the outbox; `processMessage` turns it into a rejection, or
 *   into `effect.failed` for an effect result).
 */
export function interpretActions(
  actions: readonly MachineAction[],
  context: InterpretContext,
): InterpretedActions {
  const actor = formatAddress(context.address);
  const result: InterpretedActions = {
    outbox: [],
    effects: [],
    timersArmed: [],
    timersCancelled: [],
    effectsCancelled: [],
    eventSeq: context.eventSeq,
  };
  let eventSeq = context.eventSeq;
  const maxPayloadBytes = context.maxPayloadBytes ?? DEFAULT_MAX_PAYLOAD_BYTES;
  let transientCount = 0;
  const pushEvent = (type: string, payload: Record<string, unknown>) => {
    const transient = context.transientEvents === true;
    if (transient) transientCount += 1;
    else eventSeq += 1;
    const id = transient
      ? `${actor}:ev:in.${context.inboxSeq}.${transientCount}`
      : `${actor}:ev:${eventSeq}`;
    const encoded = encodeEvent(
      {
        v: 1,
        id,
        type,
        payload,
        meta: {
          actor,
          seq: transient ? 0 : eventSeq,
          ...(transient ? { transient: true as const } : {}),
          timestampMs: context.nowMs,
          causationId: context.causationId,
          ...(context.correlationId === undefined ? {} : { correlationId: context.correlationId }),
        },
      },
      { maxPayloadBytes, subject: eventSubject(context.eventAddress, type) },
    );
    result.outbox.push({
      subject: eventSubject(context.eventAddress, type),
      messageId: id,
      contentType: encoded.contentType,
      body: encoded.bytes,
    });
  };
  actions.forEach((action, index) => {
    const derivedId = `${context.inboxSeq}.${index}`;
    switch (action.type) {
      case "xstate.emit": {
        const { event } = action.params as { event: { type: string } & Record<string, unknown> };
        const { type, ...payload } = event;
        pushEvent(type, payload);
        return;
      }
      case EMIT_ACTION: {
        const params = action.params as EmitEventParams;
        pushEvent(params.type, params.payload);
        return;
      }
      case APPEND_ACTION: {
        const params = action.params as AppendParams;
        const encoded = encodeTranscriptEntry(params.index, params.entry);
        if (encoded.bytes.byteLength > maxPayloadBytes) {
          throw new PayloadTooLargeError({
            sizeBytes: encoded.bytes.byteLength,
            maxBytes: maxPayloadBytes,
            subject: transcriptSubject(params.key),
          });
        }
        result.outbox.push({
          subject: transcriptSubject(params.key),
          messageId: `${params.key}:${params.log}:${params.index}`,
          contentType: encoded.contentType,
          body: encoded.bytes,
          first: true,
        });
        return;
      }
      case CANCEL_EFFECT_ACTION: {
        result.effectsCancelled.push((action.params as CancelEffectParams).effectId);
        return;
      }
      case "xstate.raise": {
        const params = action.params as {
          event: { type: string } & Record<string, unknown>;
          id?: string;
          delay?: number;
        };
        if (params.delay === undefined) return;
        result.timersArmed.push({
          timerId: params.id ?? derivedId,
          deadlineMs: context.nowMs + params.delay,
          event: params.event,
        });
        return;
      }
      case "xstate.cancel": {
        result.timersCancelled.push((action.params as { sendId: string }).sendId);
        return;
      }
      case EFFECT_ACTION: {
        const params = action.params as EffectRequestParams;
        result.effects.push({
          effectId: params.effectId ?? derivedId,
          effect: params.effect,
          input: params.input,
          ...(params.priority === undefined ? {} : { priority: params.priority }),
        });
        return;
      }
      case SEND_ACTION: {
        const params = action.params as SendMessageParams;
        const messageId = `${actor}:out:${derivedId}`;
        const encoded = encodeMessage(
          {
            v: 1,
            id: messageId,
            type: params.type,
            payload: params.payload,
            meta: {
              actor,
              timestampMs: context.nowMs,
              causationId: context.causationId,
              correlationId: context.correlationId ?? context.causationId,
            },
          },
          { maxPayloadBytes, subject: inboxSubject(parseAddress(params.to)) },
        );
        result.outbox.push({
          subject: inboxSubject(parseAddress(params.to)),
          messageId,
          contentType: encoded.contentType,
          body: encoded.bytes,
          ...(params.priority === undefined ? {} : { priority: params.priority }),
        });
        return;
      }
      case "xstate.log":
        return;
      default: {
        const reason = unsupportedActionReason(action.type);
        if (reason === undefined) return;
        throw new UnsupportedMachineActionError(
          context.address.kind,
          undefined,
          `action "${action.type}"`,
          reason,
        );
      }
    }
  });
  return { ...result, eventSeq };
}
