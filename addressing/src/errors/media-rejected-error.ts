import { TroupeError } from "./troupe-error.js";

/**
 * Why an image or file was refused:
 * - `too_large` — over the size limit (`maxBytes`);
 * - `type_not_allowed` — its media type is not in the allowed list;
 * - `too_many` — more attachments than one message (or tool result) may carry;
 * - `empty` — no bytes;
 * - `not_found` — a reference names an object the media store does not hold
 *   (never uploaded, or expired with the bucket's retention);
 * - `mismatch` — the stored object differs from the reference (size or digest).
 */
export type MediaRejectionReason =
  "too_large" | "type_not_allowed" | "too_many" | "empty" | "not_found" | "mismatch";

/** Options of {@link MediaRejectedError}. */
export interface MediaRejectedErrorOptions {
  readonly reason: MediaRejectionReason;
  /** A sentence for humans: what was refused and what is allowed. */
  readonly message: string;
  /** Size of the object, in bytes, when known. */
  readonly sizeBytes?: number | undefined;
  /** The limit it broke, in bytes (`too_large`) or in attachments (`too_many`). */
  readonly limit?: number | undefined;
  /** The object's media type, when known. */
  readonly mediaType?: string | undefined;
  /** The object's digest (`sha256:<hex>`), when known. */
  readonly digest?: string | undefined;
}

/**
 * An image or file was refused (docs/capabilities/media.md): the client SDK throws
 * it before anything is uploaded or published, the host when a reference cannot
 * be served. Never retryable. Code `media_rejected`.
 *
 * Shape: `TroupeError` plus `reason` ({@link MediaRejectionReason}), `sizeBytes?`,
 * `limit?`, `mediaType?`, `digest?` (also in `details`).
 *
 * @example
 * ```ts
 * try {
 *   await client.uploadMedia(bytes, { mediaType: "image/png" });
 * } catch (error) {
 *   if (MediaRejectedError.isInstance(error) && error.reason === "too_large") …
 * }
 * ```
 */
export class MediaRejectedError extends TroupeError {
  /** Why the media was refused. */
  readonly reason: MediaRejectionReason;

  /** @param options - the reason, the sentence and what is known of the object. */
  constructor(options: MediaRejectedErrorOptions) {
    const { reason, message, ...known } = options;
    const details = Object.fromEntries(
      Object.entries({ reason, ...known }).filter(([, value]) => value !== undefined),
    );
    super("media_rejected", message, { retryable: false, details });
    this.name = "MediaRejectedError";
    this.reason = reason;
  }

  /**
   * Whether `value` is a `MediaRejectedError` (from any copy of the package).
   *
   * @param value - anything, typically a caught exception.
   */
  static override isInstance(value: unknown): value is MediaRejectedError {
    return TroupeError.isInstance(value) && value.code === "media_rejected";
  }
}
