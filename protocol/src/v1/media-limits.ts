import { MediaRejectedError } from "@troupe/addressing";
import { MAX_MEDIA_BYTES, MAX_MEDIA_PER_MESSAGE } from "./media-ref.js";

/**
 * The media types accepted when a deployment sets none (docs/decisions/0045): the image
 * types the major model providers read (PNG, JPEG, GIF, WebP), PDF and plain text.
 */
export const DEFAULT_ALLOWED_MEDIA_TYPES: readonly string[] = Object.freeze([
  "image/png",
  "image/jpeg",
  "image/gif",
  "image/webp",
  "application/pdf",
  "text/plain",
]);

/**
 * Limits on images and files (client SDK `media` option, host `agentKinds({ media })`).
 *
 * Shape: `{ maxMediaBytes?: number (bytes, 1 to MAX_MEDIA_BYTES; default 20 MiB),
 * allowedMediaTypes?: string[] (patterns, `"image/*"` matches every image;
 * default DEFAULT_ALLOWED_MEDIA_TYPES), maxAttachments?: number (1 to 16; default 16) }`.
 */
export interface MediaLimits {
  readonly maxMediaBytes?: number | undefined;
  readonly allowedMediaTypes?: readonly string[] | undefined;
  readonly maxAttachments?: number | undefined;
}

/**
 * Whether a media type matches one of the patterns: `"image/png"` exactly,
 * `"image/*"` any image, `"*\/*"` anything.
 *
 * @param mediaType - a `type/subtype`, e.g. `image/png`.
 * @param patterns - media types or `type/*` wildcards.
 * @example mediaTypeMatches("image/png", ["image/*"]) // true
 */
export function mediaTypeMatches(mediaType: string, patterns: readonly string[]): boolean {
  const [type] = mediaType.split("/");
  return patterns.some(
    (pattern) => pattern === "*/*" || pattern === mediaType || pattern === `${type}/*`,
  );
}

/**
 * Checks one object against the limits.
 *
 * @param object - its size in bytes, media type and digest if known.
 * @param limits - the limits; absent fields take their defaults.
 * @throws MediaRejectedError `empty`, `too_large` or `type_not_allowed`.
 */
export function assertMediaAllowed(
  object: { readonly size: number; readonly mediaType: string; readonly digest?: string },
  limits: MediaLimits = {},
): void {
  const maxBytes = Math.min(limits.maxMediaBytes ?? MAX_MEDIA_BYTES, MAX_MEDIA_BYTES);
  const allowed = limits.allowedMediaTypes ?? DEFAULT_ALLOWED_MEDIA_TYPES;
  const known = { sizeBytes: object.size, mediaType: object.mediaType, digest: object.digest };
  if (object.size <= 0) {
    throw new MediaRejectedError({ reason: "empty", message: "The media has no bytes.", ...known });
  }
  if (object.size > maxBytes) {
    throw new MediaRejectedError({
      reason: "too_large",
      message: `The media is ${object.size} bytes; the limit is ${maxBytes} bytes.`,
      limit: maxBytes,
      ...known,
    });
  }
  if (!mediaTypeMatches(object.mediaType, allowed)) {
    throw new MediaRejectedError({
      reason: "type_not_allowed",
      message: `The media type "${object.mediaType}" is not allowed; allowed: ${allowed.join(", ")}.`,
      ...known,
    });
  }
}

/**
 * Checks the number of attachments of one message (or media of one tool result).
 *
 * @param count - how many.
 * @param limits - `maxAttachments` (default and ceiling {@link MAX_MEDIA_PER_MESSAGE}).
 * @throws MediaRejectedError `too_many`.
 */
export function assertMediaCount(count: number, limits: MediaLimits = {}): void {
  const max = Math.min(limits.maxAttachments ?? MAX_MEDIA_PER_MESSAGE, MAX_MEDIA_PER_MESSAGE);
  if (count > max) {
    throw new MediaRejectedError({
      reason: "too_many",
      message: `${count} attachments; at most ${max} may go with one message.`,
      limit: max,
    });
  }
}
