import { createHash } from "node:crypto";

/**
 * The content digest of bytes, as media references name objects:
 * `sha256:` and the 64 lowercase hex digits of their SHA-256 (docs/decisions/0045).
 *
 * @param bytes - the object's bytes.
 * @returns e.g. `"sha256:e3b0c442…"`.
 * @see https://github.com/opencontainers/image-spec/blob/main/descriptor.md#digests
 */
export function mediaDigest(bytes: Uint8Array): string {
  return `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
}

/**
 * The same digest as the NATS Object Store writes it in `ObjectInfo.digest`
 * (`SHA-256=` and the padded base64url of the hash), to check a stored object
 * against its reference without reading it.
 *
 * @param digest - `sha256:<hex>`.
 * @returns e.g. `"SHA-256=47DEQpj8…"`.
 */
export function objectStoreDigestOf(digest: string): string {
  const hex = digest.slice("sha256:".length);
  const base64 = Buffer.from(hex, "hex").toString("base64");
  return `SHA-256=${base64.replaceAll("+", "-").replaceAll("/", "_")}`;
}
