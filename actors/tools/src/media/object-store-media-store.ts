import { nanos } from "@nats-io/transport-node";
import type { JetStreamClient } from "@nats-io/jetstream";
import {
  Objm,
  StorageType,
  setSha256Backend,
  type ObjectInfo,
  type ObjectStore,
  type ObjectStoreOptions,
} from "@nats-io/obj";
import { streamReplicationConfig, type StreamPlacement } from "@troupe/runtime";
import {
  MediaRejectedError,
  assertMediaAllowed,
  withReadDeadline,
  type MediaLimits,
  type MediaRef,
} from "@troupe/protocol";
import { mediaDigest, objectStoreDigestOf } from "./media-digest.js";
import type { MediaDescription, MediaStore } from "./media-store.js";

/** Default of {@link ObjectStoreMediaStoreOptions.retentionMs}: 7 days, the journal's default. */
export const DEFAULT_MEDIA_RETENTION_MS = 7 * 24 * 3600 * 1000;

/**
 * Default of {@link ObjectStoreMediaStoreOptions.cacheBytes}: 64 MiB, three
 * objects of the 20 MiB limit.
 */
export const DEFAULT_MEDIA_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * Default of {@link ObjectStoreMediaStoreOptions.readTimeoutMs}: 60 000 ms, a
 * 20 MiB object at 350 KiB/s. Measured on loopback (2-core machine): 20 MiB
 * read in well under a second (`test/src/media/object-store-media-store.test.ts`).
 */
export const DEFAULT_MEDIA_READ_TIMEOUT_MS = 60_000;

/** Options of {@link ObjectStoreMediaStore}. */
export interface ObjectStoreMediaStoreOptions {
  /** The bucket, `mediaBucketName(prefix)` (e.g. `TROUPE_MEDIA`). */
  readonly bucket: string;
  /**
   * How long an object is kept after it was stored, in ms; default
   * {@link DEFAULT_MEDIA_RETENTION_MS} (7 days); 0 keeps objects as long as the
   * server does. Applies when this store creates the bucket.
   */
  readonly retentionMs?: number | undefined;
  /**
   * Replicas of the bucket's stream when this store creates it (1–5); default 1.
   * A host sets it to the deployment's `streamReplicas` (`--stream-replicas`,
   * decision 0032) unless `agentKinds({ media: { replicas } })` gives another.
   */
  readonly replicas?: number | undefined;
  /**
   * Where the bucket's replicas go when this store creates it (a cluster, server
   * tags or both); default: the servers choose. A host sets it to the
   * deployment's `streamPlacement`.
   */
  readonly placement?: StreamPlacement | undefined;
  /** Size and media type limits of stored objects; defaults as `assertMediaAllowed`. */
  readonly limits?: MediaLimits | undefined;
  /**
   * Bytes of objects kept in memory after a read, least recently used out
   * first (docs/decisions/0048): a session's later model calls send the same
   * attachments again, and an object named by its digest never changes, so
   * they are not read again. Default {@link DEFAULT_MEDIA_CACHE_BYTES}; 0 keeps none.
   */
  readonly cacheBytes?: number | undefined;
  /**
   * Deadline of one read (the object's info, then its bytes), in ms
   * (docs/capabilities/media.md); default {@link DEFAULT_MEDIA_READ_TIMEOUT_MS}.
   * A read past it fails with `StoreReadTimeoutError` (retryable) and its
   * consumer is stopped.
   */
  readonly readTimeoutMs?: number | undefined;
}

/**
 * A {@link MediaStore} in a NATS JetStream Object Store bucket (docs/decisions/0045):
 * objects are named by their digest (`sha256:<hex>`), so a repeated put of the
 * same bytes finds the object and stores nothing. The bucket is created on
 * first use if it does not exist (file storage, {@link ObjectStoreMediaStoreOptions.retentionMs}
 * as its TTL), else opened as it is.
 *
 * @example
 * ```ts
 * const media = new ObjectStoreMediaStore(js, { bucket: mediaBucketName("troupe") });
 * const ref = await media.put(png, { mediaType: "image/png", name: "chart.png" });
 * const bytes = await media.get(ref);
 * ```
 * @see https://docs.nats.io/nats-concepts/jetstream/obj_store
 */
export class ObjectStoreMediaStore implements MediaStore {
  readonly #js: JetStreamClient;
  readonly #options: ObjectStoreMediaStoreOptions;
  #bucket: Promise<ObjectStore> | undefined;
  /** Objects read, by digest, least recently used first. */
  readonly #cache = new Map<string, Uint8Array>();
  #cachedBytes = 0;
  /** Reads (by digest and size) and stores (by digest) under way: concurrent calls share one. */
  readonly #reading = new Map<string, Promise<Uint8Array>>();
  readonly #storing = new Map<string, Promise<void>>();

  /**
   * @param js - a JetStream client of the deployment's NATS.
   * @param options - bucket, retention, replicas, limits.
   */
  constructor(js: JetStreamClient, options: ObjectStoreMediaStoreOptions) {
    this.#js = js;
    this.#options = options;
  }

  /** See {@link MediaStore.put}. */
  async put(bytes: Uint8Array, description: MediaDescription): Promise<MediaRef> {
    const digest = mediaDigest(bytes);
    const { mediaType, name } = description;
    assertMediaAllowed({ size: bytes.length, mediaType, digest }, this.#options.limits);
    const ref: MediaRef = {
      digest,
      mediaType,
      size: bytes.length,
      ...(name === undefined ? {} : { name }),
    };
    // Concurrent puts of the same bytes in this process store them once.
    let storing = this.#storing.get(digest);
    if (storing === undefined) {
      storing = this.#store(digest, mediaType, bytes).finally(() => this.#storing.delete(digest));
      this.#storing.set(digest, storing);
    }
    await storing;
    return ref;
  }

  async #store(digest: string, mediaType: string, bytes: Uint8Array): Promise<void> {
    const bucket = await this.#open();
    const stored = await bucket.info(digest);
    if (stored !== null && !stored.deleted && stored.size === bytes.length) return;
    await bucket.putBlob({ name: digest, description: mediaType }, bytes);
  }

  /**
   * See {@link MediaStore.get}. An object read before is served from memory
   * (see {@link ObjectStoreMediaStoreOptions.cacheBytes}) once its size matches
   * the reference; concurrent reads of one digest share one read.
   */
  async get(ref: MediaRef): Promise<Uint8Array> {
    const cached = this.#cache.get(ref.digest);
    if (cached !== undefined && cached.length === ref.size) {
      this.#cache.delete(ref.digest);
      this.#cache.set(ref.digest, cached);
      return cached;
    }
    // A reference that claims another size gets its own read (and its refusal).
    const key = `${ref.digest}:${ref.size}`;
    let reading = this.#reading.get(key);
    if (reading === undefined) {
      reading = this.#read(ref).finally(() => this.#reading.delete(key));
      this.#reading.set(key, reading);
    }
    return reading;
  }

  async #read(ref: MediaRef): Promise<Uint8Array> {
    let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
    const bytes = await withReadDeadline(
      async (signal) => {
        const bucket = await this.#open();
        const info = await bucket.info(ref.digest);
        this.#assertReadable(ref, info);
        const result = await bucket.get(ref.digest);
        if (result === null) return null;
        if (signal.aborted) {
          // Past the deadline already: stop the object's consumer unread.
          await result.data.cancel().catch(() => undefined);
          return null;
        }
        reader = result.data.getReader();
        // One copy: the chunks go straight into a buffer of the known size.
        const whole = new Uint8Array(ref.size);
        let filled = 0;
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          if (filled + value.length > whole.length) {
            throw this.#mismatch(ref, `more than ${ref.size} bytes`);
          }
          whole.set(value, filled);
          filled += value.length;
        }
        const failed = await result.error;
        if (failed !== null && failed !== undefined) throw failed;
        if (filled !== whole.length) throw this.#mismatch(ref, `${filled} bytes`);
        return whole;
      },
      {
        store: "object_store",
        name: this.#options.bucket,
        key: ref.digest,
        timeoutMs: this.#options.readTimeoutMs ?? DEFAULT_MEDIA_READ_TIMEOUT_MS,
      },
      () => void reader?.cancel().catch(() => undefined),
    );
    if (bytes === null) {
      throw new MediaRejectedError({
        reason: "not_found",
        message: `The media object ${ref.digest} went away while it was read.`,
        digest: ref.digest,
        mediaType: ref.mediaType,
        sizeBytes: ref.size,
      });
    }
    this.#remember(ref.digest, bytes);
    return bytes;
  }

  /** Refuses an object that is not stored, or not the one the reference names. */
  #assertReadable(ref: MediaRef, info: ObjectInfo | null): void {
    if (info === null || info.deleted) {
      throw new MediaRejectedError({
        reason: "not_found",
        message: `No media object ${ref.digest} in bucket ${this.#options.bucket} (never stored, or expired).`,
        digest: ref.digest,
        mediaType: ref.mediaType,
        sizeBytes: ref.size,
      });
    }
    if (info.size !== ref.size || info.digest !== objectStoreDigestOf(ref.digest)) {
      throw this.#mismatch(ref, `${info.size} bytes and digest ${info.digest}`);
    }
  }

  #mismatch(ref: MediaRef, found: string): MediaRejectedError {
    return new MediaRejectedError({
      reason: "mismatch",
      message: `The stored object ${ref.digest} has ${found}; the reference says ${ref.size} bytes.`,
      digest: ref.digest,
      mediaType: ref.mediaType,
      sizeBytes: ref.size,
    });
  }

  #remember(digest: string, bytes: Uint8Array): void {
    const limit = this.#options.cacheBytes ?? DEFAULT_MEDIA_CACHE_BYTES;
    if (bytes.length > limit || this.#cache.has(digest)) return;
    this.#cache.set(digest, bytes);
    this.#cachedBytes += bytes.length;
    for (const [oldest, kept] of this.#cache) {
      if (this.#cachedBytes <= limit) break;
      this.#cache.delete(oldest);
      this.#cachedBytes -= kept.length;
    }
  }

  #open(): Promise<ObjectStore> {
    if (this.#bucket === undefined) {
      const opened = openMediaBucket(this.#js, this.#options);
      // A failed open (NATS unavailable) is tried again by the next call.
      opened.catch(() => (this.#bucket = undefined));
      this.#bucket = opened;
    }
    return this.#bucket;
  }
}

/**
 * Opens the media bucket, creating it when it does not exist (with
 * {@link mediaBucketConfig}); an existing bucket keeps its settings.
 *
 * @param js - a JetStream client.
 * @param options - bucket name, retention (ms), replicas and placement for a new bucket.
 */
export function openMediaBucket(
  js: JetStreamClient,
  options: Pick<ObjectStoreMediaStoreOptions, "bucket" | "retentionMs" | "replicas" | "placement">,
): Promise<ObjectStore> {
  // Node's own SHA-256 for the Object Store's digests (put and the check on
  // get): nats.js defaults to a pure-JS one that took about 0.7 s of the event
  // loop per 20 MiB. Process-wide; it only ever makes hashing faster.
  setSha256Backend("native");
  return new Objm(js).create(options.bucket, mediaBucketConfig(options));
}

/**
 * The settings a new media bucket is created with: file storage, a TTL of
 * `retentionMs` (none when 0), `replicas` (default 1) and `placement` (none by
 * default), as `streamReplicationConfig` gives them to the deployment's streams.
 *
 * @param options - retention (ms, default 7 days), replicas (1–5) and placement.
 * @returns the nats.js Object Store options, e.g.
 *   `{ description, storage: "file", replicas: 3, ttl: 604800000000000 }` (ttl in ns).
 */
export function mediaBucketConfig(
  options: Pick<ObjectStoreMediaStoreOptions, "retentionMs" | "replicas" | "placement">,
): Partial<ObjectStoreOptions> {
  const retentionMs = options.retentionMs ?? DEFAULT_MEDIA_RETENTION_MS;
  const replication = streamReplicationConfig({
    streamReplicas: options.replicas,
    streamPlacement: options.placement,
  });
  return {
    description: "Troupe media by reference",
    storage: StorageType.File,
    replicas: replication.num_replicas,
    ...(replication.placement === undefined ? {} : { placement: replication.placement }),
    ...(retentionMs > 0 ? { ttl: nanos(retentionMs) } : {}),
  };
}
