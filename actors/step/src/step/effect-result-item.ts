import {
  type ActorAddress,
  type TraceCarrier,
  type WireError,
  PayloadTooLargeError,
  TroupeError,
  encodeMessage,
  formatAddress,
  inboxSubject,
  toWireError,
} from "@troupe/protocol";
import type { OutboxItem, PendingEffect } from "./actor-record.js";

/** What an effect handler produced, before it is encoded. */
export type EffectResult =
  | { readonly type: "effect.completed"; readonly payload: Record<string, unknown> }
  | { readonly type: "effect.failed"; readonly payload: Record<string, unknown> };

/** The encoded result message, and why the handler's result was replaced (if it was). */
export interface EffectResultItem {
  /** The message for the actor's inbox (`Nats-Msg-Id` `<address>:fx:<effectId>`). */
  readonly item: OutboxItem;
  /**
   * Set when the handler's result could not be sent (too large, or not encodable)
   * and `item` carries `effect.failed` with this error instead.
   */
  readonly replacedBy: TroupeError | undefined;
}

/**
 * Turns a value thrown by an effect handler into a wire error, whatever it is:
 * a thrown value that cannot even be inspected (a throwing getter, a revoked
 * proxy) becomes code `internal` with a fixed message instead of an exception.
 *
 * @param error - anything a handler threw.
 * @returns `{ code, message, retryable, details? }`.
 */
export function effectWireError(error: unknown): WireError {
  try {
    return toWireError(error);
  } catch {
    return {
      code: "internal",
      message: "The effect handler threw a value that cannot be inspected.",
      retryable: false,
    };
  }
}

/**
 * Encodes an effect result as the message the host delivers into the requesting
 * actor's inbox, and never throws for the result's content: a result whose
 * encoding is larger than `maxPayloadBytes` becomes `effect.failed` with code
 * `payload_too_large` (naming the effect, the size and the limit), one that
 * cannot be encoded at all (a BigInt, a cycle, a function) becomes
 * `effect.failed` with code `internal`. The replacement is small and carries the
 * same message id, so the actor always gets an answer it can act on (one
 * actor's bad data never takes down a host).
 *
 * @param input - requesting actor, the pending effect, the result, the message
 *   time (`meta.timestampMs`, Unix ms), the payload limit in bytes and the
 *   trace context to carry (`OutboxItem.trace`).
 * @returns the outbox item and the error that replaced the result, if any.
 * @example
 * ```ts
 * const { item, replacedBy } = effectResultItem({ address, effect, result, timestampMs, maxPayloadBytes: 1_048_576 });
 * ```
 */
export function effectResultItem(input: {
  readonly address: ActorAddress;
  readonly effect: PendingEffect;
  readonly result: EffectResult;
  readonly timestampMs: number;
  readonly maxPayloadBytes: number;
  /**
   * Trace context the result message carries (docs/decisions/0036): the span of the
   * effect's run, so the step taking the result is its child. Absent: none.
   */
  readonly trace?: TraceCarrier | undefined;
}): EffectResultItem {
  const { address, effect, timestampMs, maxPayloadBytes, trace } = input;
  const actor = formatAddress(address);
  const id = `${actor}:fx:${effect.effectId}`;
  const subject = inboxSubject(address);
  const encode = (result: EffectResult): OutboxItem => {
    const encoded = encodeMessage(
      {
        v: 1,
        id,
        type: result.type,
        payload: result.payload,
        meta: { actor, timestampMs },
      },
      { maxPayloadBytes, subject },
    );
    return {
      subject,
      messageId: id,
      contentType: encoded.contentType,
      body: encoded.bytes,
      ...(trace === undefined ? {} : { trace }),
      // The result is served in the class of the effect (docs/decisions/0057).
      ...(effect.priority === undefined ? {} : { priority: effect.priority }),
    };
  };
  try {
    return { item: encode(input.result), replacedBy: undefined };
  } catch (error) {
    const replacedBy = unsendableResultError(effect, error);
    const failed: EffectResult = {
      type: "effect.failed",
      payload: { effectId: effect.effectId, error: toWireError(replacedBy) },
    };
    return { item: encode(failed), replacedBy };
  }
}

/**
 * The error recorded for an effect whose result could not be sent.
 *
 * @param effect - the pending effect.
 * @param error - what the encoder threw (`PayloadTooLargeError`, TypeError, RangeError, …).
 * @returns TroupeError `payload_too_large` (not retryable; details `sizeBytes`,
 *   `maxBytes`, `effect`) or `internal` (not retryable).
 */
export function unsendableResultError(effect: PendingEffect, error: unknown): TroupeError {
  const what = `The ${effect.effect === "" ? "effect" : `"${effect.effect}" effect`} result`;
  if (PayloadTooLargeError.isInstance(error)) {
    return new TroupeError(
      "payload_too_large",
      `${what} is ${error.sizeBytes} bytes encoded; the limit is ${error.maxBytes} bytes. ` +
        "Keep large content by reference instead of in the result.",
      {
        retryable: false,
        cause: error,
        details: { sizeBytes: error.sizeBytes, maxBytes: error.maxBytes, effect: effect.effect },
      },
    );
  }
  let reason = "unknown reason";
  try {
    if (error instanceof Error) reason = error.message;
  } catch {
    // keep the generic reason
  }
  return new TroupeError("internal", `${what} cannot be encoded: ${reason.slice(0, 500)}`, {
    retryable: false,
    cause: error,
    details: { effect: effect.effect },
  });
}
