import type { z } from "zod";
import { TroupeError } from "./troupe-error.js";

/**
 * Why decoding failed:
 *
 * - `undecodable`: the bytes are not a JSON or msgpack object (bad syntax, wrong
 *   content type, not a map, a value outside the JSON data model, nesting too deep);
 * - `schema_invalid`: the envelope or its payload does not match its schema;
 * - `unknown_type`: the envelope's `type` is not in the schema registry;
 * - `unsupported_version`: the envelope's `v` is not a version this package reads.
 */
export type DecodeFailureReason =
  "undecodable" | "schema_invalid" | "unknown_type" | "unsupported_version";

/** One validation problem, as zod reports it (`{ code, path, message, … }`). */
export type DecodeIssue = z.core.$ZodIssue;

/** Options of {@link DecodeError}. */
export interface DecodeErrorOptions {
  /** Why decoding failed. */
  readonly reason: DecodeFailureReason;
  /** NATS subject the bytes arrived on, when known. */
  readonly subject?: string | undefined;
  /** zod issues, for `schema_invalid`; paths start at the envelope (`["payload", "text"]`). */
  readonly issues?: readonly DecodeIssue[] | undefined;
  /** The underlying exception (from `JSON.parse`, msgpackr, …). */
  readonly cause?: unknown;
  /** The envelope's `type`, when decoding got that far (a payload that failed its schema). */
  readonly messageType?: string | undefined;
  /** The envelope's `id`, when decoding got that far, so a rejection names the sender's id. */
  readonly messageId?: string | undefined;
}

/**
 * Bytes could not be decoded into a valid envelope. Never retryable: decoding is
 * pure, so the same bytes fail the same way; hosts dead-letter the message.
 * Code `decode_failed`.
 *
 * Shape: `TroupeError` plus `reason`, `subject?`, `issues?` (zod issues) and
 * `messageType?` and `messageId?` (the envelope's `type` and `id`, for a payload
 * that failed its schema).
 *
 * @example
 * ```ts
 * try {
 *   decodeMessage(bytes, { subject, defaults });
 * } catch (error) {
 *   if (DecodeError.isInstance(error) && error.reason === "schema_invalid") {
 *     console.error(error.issues);
 *   }
 * }
 * ```
 */
export class DecodeError extends TroupeError {
  /** Why decoding failed. */
  readonly reason: DecodeFailureReason;
  /** NATS subject the bytes arrived on, when known. */
  readonly subject: string | undefined;
  /** zod issues, for `schema_invalid`. */
  readonly issues: readonly DecodeIssue[] | undefined;
  /** The envelope's `type`, when known: a payload that failed its type's schema. */
  readonly messageType: string | undefined;
  /** The envelope's `id`, when known: a payload that failed its type's schema. */
  readonly messageId: string | undefined;

  /**
   * @param message - what failed, for humans.
   * @param options - `reason` (required), `subject`, `issues`, `cause`, `messageType`, `messageId`.
   */
  constructor(message: string, options: DecodeErrorOptions) {
    super("decode_failed", message, {
      retryable: false,
      cause: options.cause,
      details: {
        reason: options.reason,
        ...(options.subject === undefined ? {} : { subject: options.subject }),
        ...(options.issues === undefined ? {} : { issues: options.issues }),
        ...(options.messageType === undefined ? {} : { messageType: options.messageType }),
        ...(options.messageId === undefined ? {} : { messageId: options.messageId }),
      },
    });
    this.name = "DecodeError";
    this.reason = options.reason;
    this.subject = options.subject;
    this.issues = options.issues;
    this.messageType = options.messageType;
    this.messageId = options.messageId;
  }

  /**
   * Whether `value` is a `DecodeError` from any copy of the package.
   *
   * @param value - anything, typically a caught exception.
   * @returns `true` for a branded Troupe error with code `decode_failed`.
   */
  static override isInstance(value: unknown): value is DecodeError {
    return TroupeError.isInstance(value) && value.code === "decode_failed";
  }
}
