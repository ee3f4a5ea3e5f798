import { createHash } from "node:crypto";
import { nanos } from "@nats-io/transport-node";
import type { JetStreamClient } from "@nats-io/jetstream";
import { Objm, StorageType, setSha256Backend, type ObjectStore } from "@nats-io/obj";
import {
  MediaRejectedError,
  assertMediaAllowed,
  assertMediaCount,
  type MediaLimits,
  type MediaRef,
} from "@troupe/protocol";

/**
 * The client's media options (docs/capabilities/media.md): the limits it checks
 * before uploading or sending, and the settings of the media bucket when the
 * client is the first to create it.
 *
 * Shape: `MediaLimits & { retentionMs?: number (ms, default 7 days; 0 = as long
 * as the server keeps it), replicas?: number (1–5, default 1) }`.
 */
export interface ClientMediaOptions extends MediaLimits {
  readonly retentionMs?: number;
  readonly replicas?: number;
}

/** What {@link TroupeClient.uploadMedia} takes besides the bytes. */
export interface UploadMediaOptions {
  /** IANA media type, lowercase `type/subtype`, e.g. `image/png`. */
  readonly mediaType: string;
  /** A name for humans and models, 1 to 255 characters, e.g. `photo.png`. */
  readonly name?: string;
}

const DEFAULT_RETENTION_MS = 7 * 24 * 3600 * 1000;

/**
 * The client side of the media Object Store: uploads by digest and checks that
 * attachments exist before a message naming them is published. Internal to
 * `TroupeClient`.
 */
export class ClientMedia {
  #bucket: Promise<ObjectStore> | undefined;

  constructor(
    private readonly js: JetStreamClient,
    private readonly bucketName: string,
    private readonly options: ClientMediaOptions,
  ) {}

  /** Checks, stores (unless stored already) and returns the reference. */
  async upload(data: Uint8Array, options: UploadMediaOptions): Promise<MediaRef> {
    const digest = `sha256:${createHash("sha256").update(data).digest("hex")}`;
    assertMediaAllowed({ size: data.length, mediaType: options.mediaType, digest }, this.options);
    const ref: MediaRef = {
      digest,
      mediaType: options.mediaType,
      size: data.length,
      ...(options.name === undefined ? {} : { name: options.name }),
    };
    const bucket = await this.#open();
    const stored = await bucket.info(digest);
    if (stored === null || stored.deleted || stored.size !== data.length) {
      await bucket.putBlob({ name: digest, description: options.mediaType }, data);
    }
    return ref;
  }

  /** Checks the attachments of a message against the limits (no IO). */
  assertAllowed(attachments: readonly MediaRef[]): void {
    assertMediaCount(attachments.length, this.options);
    for (const ref of attachments) assertMediaAllowed(ref, this.options);
  }

  /** Checks that every attachment is stored with the size its reference says. */
  async assertStored(attachments: readonly MediaRef[]): Promise<void> {
    const bucket = await this.#open();
    for (const ref of attachments) {
      const info = await bucket.info(ref.digest);
      if (info === null || info.deleted || info.size !== ref.size) {
        throw new MediaRejectedError({
          reason: info === null || info.deleted ? "not_found" : "mismatch",
          message:
            info === null || info.deleted
              ? `The attachment ${ref.digest} is not in the media store: upload it first (uploadMedia).`
              : `The stored object ${ref.digest} has ${info.size} bytes; the reference says ${ref.size}.`,
          digest: ref.digest,
          mediaType: ref.mediaType,
          sizeBytes: ref.size,
        });
      }
    }
  }

  #open(): Promise<ObjectStore> {
    if (this.#bucket === undefined) {
      // Node's own SHA-256 for the Object Store's digests: nats.js defaults to
      // a pure-JS one that took about 0.7 s of the event loop per 20 MiB.
      // Process-wide; it only ever makes hashing faster.
      setSha256Backend("native");
      const retentionMs = this.options.retentionMs ?? DEFAULT_RETENTION_MS;
      const opened = new Objm(this.js).create(this.bucketName, {
        description: "Troupe media by reference",
        storage: StorageType.File,
        replicas: this.options.replicas ?? 1,
        ...(retentionMs > 0 ? { ttl: nanos(retentionMs) } : {}),
      });
      opened.catch(() => (this.#bucket = undefined));
      this.#bucket = opened;
    }
    return this.#bucket;
  }
}
