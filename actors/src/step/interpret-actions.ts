import {
  type ActorAddress,
  encodeEvent,
  encodeMessage,
  eventSubject,
  formatAddress,
  inboxSubject,
  parseAddress,
} from "@troupe/protocol";
import {
  EFFECT_ACTION,
  SEND_ACTION,
  type EffectRequestParams,
  type SendMessageParams,
} from "@troupe/machines";
import type { OutboxItem, PendingEffect, PendingTimer } from "./actor-record.js";

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
}

/**
 * Turns xstate action objects into outbox items, effect requests and timer
 * changes. Pure: ids derive from the actor address, the inbox sequence and the
 * action index, so a replay produces byte-identical results.
 *
 * Understood: `xstate.emit` (event), `xstate.raise` with a delay (`after` or a
 * delayed raise: durable timer), `xstate.cancel` (cancels a timer),
 * `troupe.effect`, `troupe.send`. Other actions are executed by xstate itself
 * (assign, immediate raise) or are not supported across hosts and are ignored.
 *
 * @param actions - actions from `initialTransition` / `transition`, in order.
 * @param context - deterministic inputs.
 * @returns the outbox, effects and timer changes.
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
    eventSeq: context.eventSeq,
  };
  let eventSeq = context.eventSeq;
  actions.forEach((action, index) => {
    const derivedId = `${context.inboxSeq}.${index}`;
    switch (action.type) {
      case "xstate.emit": {
        const { event } = action.params as { event: { type: string } & Record<string, unknown> };
        const { type, ...payload } = event;
        eventSeq += 1;
        const encoded = encodeEvent({
          v: 1,
          id: `${actor}:ev:${eventSeq}`,
          type,
          payload,
          meta: {
            actor,
            seq: eventSeq,
            timestampMs: context.nowMs,
            causationId: context.causationId,
            ...(context.correlationId === undefined
              ? {}
              : { correlationId: context.correlationId }),
          },
        });
        result.outbox.push({
          subject: eventSubject(context.eventAddress, type),
          messageId: `${actor}:ev:${eventSeq}`,
          contentType: encoded.contentType,
          body: encoded.bytes,
        });
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
        });
        return;
      }
      case SEND_ACTION: {
        const params = action.params as SendMessageParams;
        const messageId = `${actor}:out:${derivedId}`;
        const encoded = encodeMessage({
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
        });
        result.outbox.push({
          subject: inboxSubject(parseAddress(params.to)),
          messageId,
          contentType: encoded.contentType,
          body: encoded.bytes,
        });
        return;
      }
      default:
        return;
    }
  });
  return { ...result, eventSeq };
}
