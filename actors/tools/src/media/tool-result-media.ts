import {
  cutText,
  assertMediaAllowed,
  assertMediaCount,
  mediaTypeSchema,
  type MediaLimits,
  type MediaRef,
} from "@troupe/protocol";
import { mediaDigest } from "./media-digest.js";

/**
 * An image or file inside a tool's result (docs/decisions/0045). A tool returns it as a
 * plain object anywhere in its result — the whole result, an array item or a
 * property:
 *
 * Shape: `{ type: "image" | "file", data: Uint8Array | string (base64), mediaType: string, name?: string }`.
 *
 * The `tool.execute` handler stores its bytes in the media Object Store and
 * puts its reference in their place: `{ type, digest, mediaType, size, name? }`.
 *
 * @example
 * ```ts
 * execute: async ({ city }) => ({
 *   caption: `Rain radar for ${city}`,
 *   radar: { type: "image", data: await render(city), mediaType: "image/png", name: "radar.png" },
 * })
 * ```
 */
export interface ToolMedia {
  readonly type: "image" | "file";
  readonly data: Uint8Array | string;
  readonly mediaType: string;
  readonly name?: string;
}

/** One media object of a result, with the reference that replaces it. */
export interface ExtractedMedia {
  readonly ref: MediaRef;
  readonly bytes: Uint8Array;
}

/** Deepest nesting searched for media in a result (objects and arrays). */
const MAX_DEPTH = 8;

/**
 * Finds the {@link ToolMedia} objects of a tool result, checks them against
 * the limits and replaces each by its reference, in the order found
 * (depth-first). A result without media comes back as it is.
 *
 * @param value - what the tool's `execute` resolved to.
 * @param limits - size, media type and count limits (defaults as `assertMediaAllowed`).
 * @returns the result with references in place of media, and the media found.
 * @throws MediaRejectedError (`too_large`, `type_not_allowed`, `empty`, `too_many`):
 *   the call then fails with that message and nothing is stored.
 */
export function extractToolMedia(
  value: unknown,
  limits: MediaLimits = {},
): { readonly value: unknown; readonly media: readonly ExtractedMedia[] } {
  const media: ExtractedMedia[] = [];
  const walk = (node: unknown, depth: number): unknown => {
    if (isToolMedia(node)) {
      const bytes =
        typeof node.data === "string"
          ? new Uint8Array(Buffer.from(node.data, "base64"))
          : node.data;
      const digest = mediaDigest(bytes);
      assertMediaAllowed({ size: bytes.length, mediaType: node.mediaType, digest }, limits);
      const ref: MediaRef = {
        digest,
        mediaType: node.mediaType,
        size: bytes.length,
        ...(node.name === undefined ? {} : { name: cutText(node.name, 255) }),
      };
      media.push({ ref, bytes });
      return { type: node.type, ...ref };
    }
    if (depth >= MAX_DEPTH || typeof node !== "object" || node === null) return node;
    if (Array.isArray(node)) return node.map((item) => walk(item, depth + 1));
    if (Object.getPrototypeOf(node) !== Object.prototype) return node;
    return Object.fromEntries(
      Object.entries(node).map(([key, item]) => [key, walk(item, depth + 1)]),
    );
  };
  const replaced = walk(value, 0);
  assertMediaCount(media.length, limits);
  return media.length === 0 ? { value, media } : { value: replaced, media };
}

function isToolMedia(node: unknown): node is ToolMedia {
  if (typeof node !== "object" || node === null) return false;
  const candidate = node as Partial<Record<keyof ToolMedia, unknown>>;
  return (
    (candidate.type === "image" || candidate.type === "file") &&
    (candidate.data instanceof Uint8Array || typeof candidate.data === "string") &&
    typeof candidate.mediaType === "string" &&
    mediaTypeSchema.safeParse(candidate.mediaType).success &&
    (candidate.name === undefined || (typeof candidate.name === "string" && candidate.name !== ""))
  );
}
