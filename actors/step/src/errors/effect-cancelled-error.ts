import { TroupeError } from "@troupe/protocol";

/**
 * The abort reason the host gives an effect handler when the machine cancelled
 * the effect (`troupe.cancelEffect`, e.g. a run was cancelled). Unlike an abort
 * for a shard hand-over, the handler's (partial) result is still delivered: a
 * handler may return what it has so far, or throw and be reported as
 * `effect.failed` with code `cancelled`.
 */
export class EffectCancelledError extends TroupeError {
  constructor(readonly effectId: string) {
    super("cancelled", `effect ${effectId} was cancelled by its actor`, {
      retryable: false,
      details: { effectId },
    });
    this.name = "EffectCancelledError";
  }

  /**
   * Whether `value` (typically `signal.reason`) is an effect cancellation, from any
   * copy of the package.
   *
   * @param value - anything.
   * @returns true for an {@link EffectCancelledError}.
   */
  static override isInstance(value: unknown): value is EffectCancelledError {
    return (
      TroupeError.isInstance(value) &&
      value.code === "cancelled" &&
      value.name === "EffectCancelledError"
    );
  }
}
