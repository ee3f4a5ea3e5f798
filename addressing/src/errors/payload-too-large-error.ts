import { TroupeError } from "./troupe-error.js";

/** Options of {@link PayloadTooLargeError}. */
export interface PayloadTooLargeErrorOptions {
  /** Size of the encoded message, in bytes. */
  readonly sizeBytes: number;
  /** The limit it broke, in bytes. */
  readonly maxBytes: number;
  /** NATS subject, when known. */
  readonly subject?: string | undefined;
}

/**
 * An encoded message is larger than the payload limit (default
 * `DEFAULT_MAX_PAYLOAD_BYTES`, 1 MiB). Thrown by the encoders before anything is
 * published and by the decoders before any parsing. Never retryable.
 * Code `payload_too_large`.
 *
 * Shape: `TroupeError` plus `sizeBytes`, `maxBytes` and `subject?`.
 *
 * @example
 * ```ts
 * try {
 *   encodeMessage(envelope);
 * } catch (error) {
 *   if (PayloadTooLargeError.isInstance(error)) console.error(error.sizeBytes, error.maxBytes);
 * }
 * ```
 */
export class PayloadTooLargeError extends TroupeError {
  /** Size of the encoded message, in bytes. */
  readonly sizeBytes: number;
  /** The limit it broke, in bytes. */
  readonly maxBytes: number;
  /** NATS subject, when known. */
  readonly subject: string | undefined;

  /**
   * @param options - `sizeBytes`, `maxBytes`, `subject?`; the message is derived from them.
   */
  constructor(options: PayloadTooLargeErrorOptions) {
    const where = options.subject === undefined ? "" : ` on ${options.subject}`;
    super(
      "payload_too_large",
      `The message${where} is ${options.sizeBytes} bytes; the limit is ${options.maxBytes} bytes.`,
      {
        retryable: false,
        details: {
          sizeBytes: options.sizeBytes,
          maxBytes: options.maxBytes,
          ...(options.subject === undefined ? {} : { subject: options.subject }),
        },
      },
    );
    this.name = "PayloadTooLargeError";
    this.sizeBytes = options.sizeBytes;
    this.maxBytes = options.maxBytes;
    this.subject = options.subject;
  }

  /**
   * Whether `value` is a `PayloadTooLargeError` from any copy of the package.
   *
   * @param value - anything, typically a caught exception.
   * @returns `true` for a branded Troupe error with code `payload_too_large`.
   */
  static override isInstance(value: unknown): value is PayloadTooLargeError {
    return TroupeError.isInstance(value) && value.code === "payload_too_large";
  }
}
