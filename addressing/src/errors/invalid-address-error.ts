import { TroupeError } from "./troupe-error.js";

/** Which part of an address was refused. */
export type InvalidAddressField = "kind" | "id" | "address";

/**
 * An actor kind, id or `kind/id` text breaks the address rules (see
 * `ACTOR_TOKEN_PATTERN` and `RESERVED_ACTOR_KINDS`). Never retryable: the same
 * input fails the same way. Code `invalid_address`.
 *
 * Shape: `TroupeError` plus `field` (`"kind"`, `"id"` or `"address"`) and `value`
 * (the refused text).
 *
 * @example
 * ```ts
 * try {
 *   actorAddress("session", "has space");
 * } catch (error) {
 *   if (InvalidAddressError.isInstance(error)) console.error(error.field, error.message);
 * }
 * ```
 */
export class InvalidAddressError extends TroupeError {
  /** Which part was refused. */
  readonly field: InvalidAddressField;
  /** The refused text. */
  readonly value: string;

  /**
   * @param message - what is wrong and what is allowed.
   * @param field - which part was refused.
   * @param value - the refused text.
   */
  constructor(message: string, field: InvalidAddressField, value: string) {
    super("invalid_address", message, { retryable: false, details: { field, value } });
    this.name = "InvalidAddressError";
    this.field = field;
    this.value = value;
  }

  /**
   * Whether `value` is an `InvalidAddressError` from any copy of the package.
   *
   * @param value - anything, typically a caught exception.
   * @returns `true` for a branded Troupe error with code `invalid_address`.
   */
  static override isInstance(value: unknown): value is InvalidAddressError {
    return TroupeError.isInstance(value) && value.code === "invalid_address";
  }
}
