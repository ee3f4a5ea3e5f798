import { z } from "zod";

// Media by reference: images and files travel as references to
// objects in the deployment's JetStream Object Store bucket (`<prefix>_MEDIA`),
// never inlined in messages, snapshots or transcripts. The reference follows
// the shape of an OCI content descriptor (`mediaType`, `digest`, `size`):
// https://github.com/opencontainers/image-spec/blob/main/descriptor.md

/**
 * The largest media object a reference may name, in bytes: 20 MiB
 * (20,971,520). A wire rule like `MAX_TEXT_LENGTH`: a deployment may refuse
 * smaller objects (client and host option `maxMediaBytes`), never larger ones.
 */
export const MAX_MEDIA_BYTES = 20 * 1024 * 1024;

/** The most attachments one `user.message` (or media one tool result) may carry: 16. */
export const MAX_MEDIA_PER_MESSAGE = 16;

/** Longest attachment name, in characters: 255. */
export const MAX_MEDIA_NAME_LENGTH = 255;

/**
 * A content digest: `sha256:` and 64 lowercase hex digits (the SHA-256 of the
 * object's bytes), as OCI descriptors write it. It is the object's name in the
 * Object Store, so one content is stored once whoever uploads it, however often.
 */
export const mediaDigestSchema = z
  .string()
  .regex(/^sha256:[0-9a-f]{64}$/, { error: 'Expected "sha256:" and 64 lowercase hex digits.' });

/**
 * An IANA media type `type/subtype` (parameters such as `; charset=utf-8`
 * are not allowed), lowercase: `image/png`, `application/pdf`.
 *
 * @see https://www.iana.org/assignments/media-types/media-types.xhtml
 */
export const mediaTypeSchema = z
  .string()
  .max(255)
  .regex(/^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/, {
    error: 'Expected a lowercase media type "type/subtype", e.g. "image/png".',
  });

/**
 * A reference to a media object (an image or a file) in the deployment's
 * Object Store: what `user.message.attachments`, transcript entries and tool
 * results hold instead of the bytes.
 *
 * Shape: `{ digest: "sha256:<64 hex>", mediaType: string ("image/png"), size: number
 * (bytes, 1 to MAX_MEDIA_BYTES), name?: string (1 to 255 characters, e.g. "photo.png") }`;
 * no other field.
 */
export const mediaRefSchema = z.strictObject({
  digest: mediaDigestSchema,
  mediaType: mediaTypeSchema,
  size: z.number().int().min(1).max(MAX_MEDIA_BYTES),
  name: z.string().min(1).max(MAX_MEDIA_NAME_LENGTH).optional(),
});
/** See {@link mediaRefSchema}. */
export type MediaRef = z.infer<typeof mediaRefSchema>;

/** A list of 1 to {@link MAX_MEDIA_PER_MESSAGE} media references. */
export const mediaRefListSchema = z.array(mediaRefSchema).min(1).max(MAX_MEDIA_PER_MESSAGE);
