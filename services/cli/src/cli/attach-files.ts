import { readFile } from "node:fs/promises";
import { basename, extname } from "node:path";
import type { TroupeClient } from "@troupe/client";
import { Option } from "commander";
import {
  MediaRejectedError,
  type MediaRef,
  type MediaRejectedErrorOptions,
} from "@troupe/protocol";

/** Media types `--attach` infers from a file's extension (lowercase, with the dot). */
export const MEDIA_TYPES_BY_EXTENSION: Readonly<Record<string, string>> = Object.freeze({
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".pdf": "application/pdf",
  ".txt": "text/plain",
  ".md": "text/plain",
});

/** A `--attach` value: `<path>` or `<mediaType>:<path>`. */
export interface AttachSpec {
  readonly path: string;
  readonly mediaType: string;
  readonly name: string;
}

/**
 * Reads a `--attach` value: `photo.png` (media type from the
 * extension, see {@link MEDIA_TYPES_BY_EXTENSION}) or `image/png:./shot`
 * (media type given). The attachment's name is the file's base name.
 *
 * @param value - the flag's value.
 * @returns path, media type and name.
 * @throws RangeError when the value starts with `-` (an option taken for the
 *   file) or the extension is unknown and no media type is given.
 * @example parseAttachSpec("application/pdf:report") // { path: "report", mediaType: "application/pdf", name: "report" }
 */
export function parseAttachSpec(value: string): AttachSpec {
  if (value.startsWith("-")) {
    throw new RangeError(
      `--attach needs a file, got "${value}"; write ./${value} for a file whose name starts with -`,
    );
  }
  const typed = /^([a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*):(.+)$/iu.exec(value);
  const path = typed?.[2] ?? value;
  const mediaType =
    typed?.[1]?.toLowerCase() ?? MEDIA_TYPES_BY_EXTENSION[extname(path).toLowerCase()];
  if (mediaType === undefined) {
    throw new RangeError(
      `--attach ${value}: cannot tell the media type from "${extname(path)}"; ` +
        `write it before the path, e.g. --attach image/png:${path}`,
    );
  }
  return { path, mediaType, name: basename(path).slice(0, 255) || "attachment" };
}

/**
 * Uploads the `--attach` files (in order) and returns their references.
 *
 * @param client - a connected client.
 * @param values - the `--attach` values.
 * @throws RangeError (see {@link parseAttachSpec}; a file that cannot be read),
 *   `MediaRejectedError` (too large, media type not allowed) before anything is sent.
 */
export async function uploadAttachments(
  client: TroupeClient,
  values: readonly string[],
): Promise<MediaRef[]> {
  const specs = values.map(parseAttachSpec);
  const refs: MediaRef[] = [];
  for (const spec of specs) {
    const bytes = await readFile(spec.path).catch((error: unknown) => {
      throw new RangeError(`--attach ${spec.path}: ${fileProblem(error)}`, { cause: error });
    });
    const ref = await client
      .uploadMedia(bytes, { mediaType: spec.mediaType, name: spec.name })
      .catch((error: unknown) => {
        // Which of several files was refused.
        if (!MediaRejectedError.isInstance(error)) throw error;
        throw new MediaRejectedError({
          ...(error.details as Omit<MediaRejectedErrorOptions, "message">),
          reason: error.reason,
          message: `--attach ${spec.path}: ${error.message}`,
        });
      });
    refs.push(ref);
  }
  return refs;
}

/**
 * The `--attach <file>` option of `troupe send` and `troupe chat`:
 * repeatable, each value `[<mediaType>:]<path>` (see {@link parseAttachSpec}),
 * collected in order into `attach: string[]` (absent when not given).
 *
 * @param appliesTo - what the files go with, for the help text (e.g. "the message").
 * @example sendCommand.addOption(attachOption("the message"))
 */
export function attachOption(appliesTo: string): Option {
  return new Option(
    "--attach <file>",
    `attach an image or file to ${appliesTo}, uploaded to the media store first (repeatable; ` +
      "[<mediaType>:]<path>, the type from the extension by default)",
  ).argParser(collectValues);
}

/** Commander collector for a repeatable option. */
export function collectValues(value: string, previous: readonly string[] = []): string[] {
  return [...previous, value];
}

/** A sentence for a file that could not be read (`ENOENT`, `EISDIR`, `EACCES`, else the error's message). */
function fileProblem(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (code === "ENOENT") return "no such file";
  if (code === "EISDIR") return "is a folder, not a file";
  if (code === "EACCES") return "permission denied";
  return error instanceof Error ? error.message : String(error);
}
