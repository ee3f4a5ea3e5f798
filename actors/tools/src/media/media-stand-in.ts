import type { MediaRef } from "@troupe/protocol";

/**
 * The text a model reads in place of an attachment it is not given (docs/decisions/0045):
 * it names the attachment (name, media type, size in bytes, digest) and why.
 *
 * @param ref - the attachment's reference.
 * @param why - `"not_accepted"` (the agent's model does not take this media
 *   type, `defineAgent({ media: { accepts } })`) or `"unavailable"` (the object
 *   is not in the media store: expired or never uploaded).
 * @returns e.g. `[Attachment "photo.png" (image/png, 2048 bytes, sha256:ab12…) not shown: this model does not accept image/png.]`
 */
export function mediaStandIn(ref: MediaRef, why: "not_accepted" | "unavailable"): string {
  const name = ref.name === undefined ? "" : ` "${ref.name}"`;
  const about = `${ref.mediaType}, ${ref.size} bytes, ${ref.digest}`;
  const reason =
    why === "not_accepted"
      ? `this model does not accept ${ref.mediaType}`
      : "it is no longer in the media store";
  return `[Attachment${name} (${about}) not shown: ${reason}.]`;
}
