/**
 * The JetStream Object Store bucket that holds a deployment's media (docs/decisions/0045):
 * `<PREFIX>_MEDIA`, the prefix upper-cased like the stream names (`troupe` →
 * `TROUPE_MEDIA`; its stream is `OBJ_TROUPE_MEDIA`). Objects in it are named
 * by their digest (`sha256:<hex>`).
 *
 * @param prefix - deployment prefix, e.g. `troupe`.
 * @returns the bucket name.
 * @see https://docs.nats.io/nats-concepts/jetstream/obj_store
 * @example mediaBucketName("troupe") // "TROUPE_MEDIA"
 */
export function mediaBucketName(prefix: string): string {
  return `${prefix.toUpperCase().replace(/[^A-Z0-9_-]/g, "_")}_MEDIA`;
}
