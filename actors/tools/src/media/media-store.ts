import type { MediaRef } from "@troupe/protocol";

/** What is known of an object when it is stored: its media type and, optionally, a name. */
export interface MediaDescription {
  /** IANA media type, lowercase `type/subtype` (e.g. `image/png`). */
  readonly mediaType: string;
  /** A name for humans and models (e.g. `photo.png`), 1 to 255 characters. */
  readonly name?: string | undefined;
}

/**
 * Keeps images and files by content digest (docs/decisions/0045). Storing is idempotent:
 * the same bytes give the same reference and one stored object, however often
 * and by whichever host or client they are stored — so an effect re-run after
 * a crash neither loses nor duplicates media.
 */
export interface MediaStore {
  /**
   * Stores bytes (unless an object with their digest is stored already).
   *
   * @param bytes - the content, 1 byte to the store's limit.
   * @param description - media type and optional name.
   * @returns the reference `{ digest, mediaType, size, name? }`.
   * @throws MediaRejectedError (`empty`, `too_large`, `type_not_allowed`) before anything is stored.
   */
  put(bytes: Uint8Array, description: MediaDescription): Promise<MediaRef>;
  /**
   * Reads the bytes a reference names.
   *
   * @param ref - a reference from {@link MediaStore.put} (or a client's upload).
   * @returns the bytes.
   * @throws MediaRejectedError `not_found` (never stored, or expired) or
   *   `mismatch` (the stored object has another size or digest);
   *   `StoreReadTimeoutError` (`timeout`, retryable) when the read did not
   *   complete within its deadline (docs/capabilities/media.md).
   */
  get(ref: MediaRef): Promise<Uint8Array>;
}
