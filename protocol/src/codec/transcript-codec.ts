import { Packr } from "msgpackr";
import { transcriptEntrySchema, type TranscriptEntry } from "../v1/transcript-entry.js";
import { MSGPACK_CONTENT_TYPE } from "./content-type.js";

/** Content type of transcript entries in the transcript stream. */
export const TRANSCRIPT_CONTENT_TYPE = MSGPACK_CONTENT_TYPE;

const packr = new Packr({ useRecords: false, moreTypes: false });

/** One stored transcript entry: its position in the session's log and the entry. */
export interface StoredTranscriptEntry {
  /** Position from 0, gapless per session. */
  readonly index: number;
  readonly entry: TranscriptEntry;
}

/**
 * Encodes a transcript entry for `_troupe.transcript.<sessionId>`.
 *
 * @param index - position of the entry in the session's log (from 0).
 * @param entry - the entry.
 * @returns msgpack bytes and their content type.
 */
export function encodeTranscriptEntry(
  index: number,
  entry: TranscriptEntry,
): { bytes: Uint8Array; contentType: string } {
  return { bytes: packr.pack({ index, entry }), contentType: TRANSCRIPT_CONTENT_TYPE };
}

/**
 * Decodes and validates a stored transcript entry.
 *
 * @param bytes - bytes written by {@link encodeTranscriptEntry}.
 * @returns the entry, or undefined when the bytes are not a valid entry.
 */
export function decodeTranscriptEntry(bytes: Uint8Array): StoredTranscriptEntry | undefined {
  try {
    const value = packr.unpack(bytes) as { index?: unknown; entry?: unknown };
    const entry = transcriptEntrySchema.safeParse(value.entry);
    if (typeof value.index !== "number" || !entry.success) return undefined;
    return { index: value.index, entry: entry.data };
  } catch {
    return undefined;
  }
}
