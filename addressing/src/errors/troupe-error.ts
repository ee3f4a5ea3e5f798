import type { TroupeErrorCode } from "./troupe-error-code.js";

const troupeErrorBrand: unique symbol = Symbol.for("troupe.error");

/** Options of {@link TroupeError} beyond its code and message. */
export interface TroupeErrorOptions {
  /** Whether repeating the failed operation may succeed. Default `false`. */
  readonly retryable?: boolean | undefined;
  /** The underlying error or value, kept for logs; never sent over the wire. */
  readonly cause?: unknown;
  /** Plain data describing the failure (it may cross the wire, see `toWireError`). */
  readonly details?: Record<string, unknown> | undefined;
}

/**
 * Base class of every error Troupe throws on purpose.
 *
 * Shape: `{ name, message, code, retryable, cause?, details? }`. `code` says what
 * went wrong (see {@link TroupeErrorCode}); `retryable` says whether trying the
 * same operation again may help. Subclasses exist for errors that carry extra
 * fields (`DecodeError`, `PayloadTooLargeError`, `InvalidAddressError`).
 *
 * Check with {@link TroupeError.isInstance} rather than `instanceof`: the check
 * uses a `Symbol.for("troupe.error")` brand, so it holds even when two copies of
 * `@troupe/protocol` are loaded.
 *
 * @example
 * ```ts
 * throw new TroupeError("timeout", "the model call took longer than 60000 ms", {
 *   retryable: true,
 *   details: { timeoutMs: 60_000 },
 * });
 * ```
 */
export class TroupeError extends Error {
  /** What went wrong. */
  readonly code: TroupeErrorCode;
  /** Whether repeating the failed operation may succeed. */
  readonly retryable: boolean;
  /** Plain data describing the failure. */
  readonly details: Record<string, unknown> | undefined;
  private readonly [troupeErrorBrand] = true;

  /**
   * @param code - what went wrong.
   * @param message - a sentence for humans: what failed and, where useful, what is allowed.
   * @param options - `retryable` (default `false`), `cause`, `details`.
   */
  constructor(code: TroupeErrorCode, message: string, options: TroupeErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "TroupeError";
    this.code = code;
    this.retryable = options.retryable ?? false;
    this.details = options.details;
  }

  /**
   * Whether `value` is a Troupe error, from this copy of the package or another.
   *
   * @param value - anything, typically a caught exception.
   * @returns `true` when `value` carries the `Symbol.for("troupe.error")` brand.
   */
  static isInstance(value: unknown): value is TroupeError {
    return (
      typeof value === "object" &&
      value !== null &&
      (value as { [troupeErrorBrand]?: unknown })[troupeErrorBrand] === true
    );
  }
}
