import type { FilePart, TextPart, ToolResultPart, UserContent } from "ai";
import {
  MediaRejectedError,
  mediaTypeMatches,
  type MediaRef,
  type TranscriptEntry,
} from "@troupe/protocol";
import type { MediaStore } from "./media-store.js";
import { mediaStandIn } from "./media-stand-in.js";

/** The media types an agent's model accepts when the agent sets none: images and PDF. */
export const DEFAULT_ACCEPTED_MEDIA_TYPES: readonly string[] = Object.freeze([
  "image/*",
  "application/pdf",
]);

/**
 * How `buildModelPrompt` shows the media of transcript entries (docs/decisions/0045):
 * content for a user entry with attachments and an output for a tool entry
 * with media, or undefined for an entry without media (shown as before).
 */
export interface PromptMedia {
  /** The content of a user message with attachments: its text, then a part per attachment. */
  userContent(entry: UserTranscriptEntry): UserContent | undefined;
  /** The output of a tool result with media: its text, then a part per object. */
  toolOutput(entry: ToolTranscriptEntry): ToolResultPart["output"] | undefined;
}

/**
 * Loads the media the entries reference and returns how the prompt shows it:
 * an attachment of a type the model accepts becomes an AI SDK `image` part
 * (images) or `file` part (others) with its bytes; one it does not accept, or
 * one no longer in the store, becomes a text stand-in ({@link mediaStandIn}).
 * Each digest is read once per call.
 *
 * @param entries - the transcript entries of the prompt.
 * @param store - where the bytes are; undefined = every attachment is shown as a stand-in.
 * @param accepts - media type patterns the model accepts (`image/*`); default {@link DEFAULT_ACCEPTED_MEDIA_TYPES}.
 * @returns the {@link PromptMedia} for `buildModelPrompt`.
 * @throws what the store throws other than MediaRejectedError (e.g. NATS
 *   unavailable): the model call fails retryably and the run tries again.
 * @see https://ai-sdk.dev/docs/foundations/prompts#image-parts
 */
export async function loadPromptMedia(
  entries: readonly TranscriptEntry[],
  store: MediaStore | undefined,
  accepts: readonly string[] = DEFAULT_ACCEPTED_MEDIA_TYPES,
): Promise<PromptMedia> {
  const refs = new Map<string, MediaRef>();
  for (const ref of entries.flatMap(mediaOf)) {
    if (mediaTypeMatches(ref.mediaType, accepts)) refs.set(ref.digest, ref);
  }
  const bytes = new Map<string, Uint8Array>();
  if (store !== undefined) {
    await Promise.all(
      [...refs.values()].map(async (ref) => {
        try {
          bytes.set(ref.digest, await store.get(ref));
        } catch (error) {
          // A missing or altered object is shown as a stand-in; anything else is retried.
          if (!MediaRejectedError.isInstance(error)) throw error;
        }
      }),
    );
  }
  const parts = (media: readonly MediaRef[]) => media.map((ref) => partOf(ref, accepts, bytes));
  return {
    userContent: (entry) => {
      if (entry.attachments === undefined || entry.attachments.length === 0) return undefined;
      return [
        ...(entry.text.length > 0 ? [{ type: "text" as const, text: entry.text }] : []),
        ...parts(entry.attachments).map(userPart),
      ];
    },
    toolOutput: (entry) => {
      if (entry.media === undefined || entry.media.length === 0) return undefined;
      return {
        type: "content",
        value: [
          { type: "text", text: entry.content },
          ...parts(entry.media).map((part) =>
            part.type === "text"
              ? part
              : {
                  type: "file" as const,
                  data: { type: "data" as const, data: part.bytes },
                  mediaType: part.ref.mediaType,
                  ...(part.ref.name === undefined ? {} : { filename: part.ref.name }),
                },
          ),
        ],
      };
    },
  };
}

/** The media references of an entry (attachments of a user entry, media of a tool entry). */
function mediaOf(entry: TranscriptEntry): readonly MediaRef[] {
  if (entry.role === "user") return entry.attachments ?? [];
  if (entry.role === "tool") return entry.media ?? [];
  return [];
}

type LoadedPart = TextPart | { type: "bytes"; ref: MediaRef; bytes: Uint8Array };

function partOf(
  ref: MediaRef,
  accepts: readonly string[],
  bytes: ReadonlyMap<string, Uint8Array>,
): LoadedPart {
  if (!mediaTypeMatches(ref.mediaType, accepts)) {
    return { type: "text", text: mediaStandIn(ref, "not_accepted") };
  }
  const loaded = bytes.get(ref.digest);
  if (loaded === undefined) return { type: "text", text: mediaStandIn(ref, "unavailable") };
  return { type: "bytes", ref, bytes: loaded };
}

function userPart(part: LoadedPart): TextPart | FilePart {
  if (part.type === "text") return part;
  const { ref, bytes } = part;
  // Images too are file parts with their image/* media type: the AI SDK
  // deprecated the "image" part (warning AISDK_DEP_IMAGE_CONTENT_PART), and
  // providers get the same bytes and media type either way.
  return {
    type: "file",
    data: bytes,
    mediaType: ref.mediaType,
    ...(ref.name === undefined ? {} : { filename: ref.name }),
  };
}

type UserTranscriptEntry = Extract<TranscriptEntry, { role: "user" }>;
type ToolTranscriptEntry = Extract<TranscriptEntry, { role: "tool" }>;
