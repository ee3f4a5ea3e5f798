import { z } from "zod";
import { actorIdSchema } from "@troupe/addressing";

/**
 * The most segments a fork's transcript base holds: a fork of a fork of … is
 * refused past this depth (`fork_too_deep`), so a model call reads a bounded
 * number of logs.
 */
export const MAX_TRANSCRIPT_BASE_SEGMENTS = 32;

/**
 * One segment of a forked session's shared transcript prefix: entries
 * `start … length − 1` are read from session `sessionId`'s own transcript
 * (`_troupe.transcript.<sessionId>`, at the same indices), where `start` is the
 * previous segment's `length` (0 for the first segment).
 *
 * Shape: `{ sessionId: string, length: number (entries, whole, 1+) }`.
 * See docs/decisions/0043.
 */
export const transcriptSegmentSchema = z.object({
  sessionId: actorIdSchema,
  length: z.number().int().min(1),
});
/** See {@link transcriptSegmentSchema}. */
export type TranscriptSegment = z.infer<typeof transcriptSegmentSchema>;

/**
 * A forked session's transcript base: the shared prefix, as segments in index
 * order with strictly growing `length`s. Entries from the last segment's
 * `length` on are the session's own (at their own indices on its own subject).
 * Empty (or absent) for a session that is no fork, or a fork at length 0.
 *
 * Shape: `TranscriptSegment[]` (at most {@link MAX_TRANSCRIPT_BASE_SEGMENTS}).
 */
export const transcriptBaseSchema = z
  .array(transcriptSegmentSchema)
  .max(MAX_TRANSCRIPT_BASE_SEGMENTS)
  .refine((segments) => segments.every((s, i) => i === 0 || s.length > segments[i - 1]!.length), {
    message: "segment lengths must grow strictly",
  });
/** See {@link transcriptBaseSchema}. */
export type TranscriptBase = z.infer<typeof transcriptBaseSchema>;

/**
 * Where entry `index` of a session's transcript is stored: the session of the
 * base segment that covers it, or the session itself past its base.
 *
 * @param sessionId - the session whose transcript is read.
 * @param base - its transcript base (empty for no fork).
 * @param index - the entry index, 0-based.
 * @returns the session whose transcript subject holds the entry (at the same index).
 */
export function transcriptOwnerOf(
  sessionId: string,
  base: readonly TranscriptSegment[],
  index: number,
): string {
  return base.find((segment) => index < segment.length)?.sessionId ?? sessionId;
}

/**
 * The base of a fork at `length` entries of session `sourceId`, whose own base
 * is `sourceBase`: the source's segments cut at `length`, then the source's own
 * entries up to `length` (a fork never copies entries; it points at them).
 *
 * @param sourceId - the session forked.
 * @param sourceBase - the source's transcript base (empty when it is no fork).
 * @param length - entries shared with the fork (0 or more).
 * @returns the fork's base; at most one segment more than the source's.
 * @example
 * forkTranscriptBase("a", [], 4); // [{ sessionId: "a", length: 4 }]
 * forkTranscriptBase("b", [{ sessionId: "a", length: 4 }], 2); // [{ sessionId: "a", length: 2 }]
 */
export function forkTranscriptBase(
  sourceId: string,
  sourceBase: readonly TranscriptSegment[],
  length: number,
): TranscriptSegment[] {
  const base: TranscriptSegment[] = [];
  for (const segment of sourceBase) {
    if (segment.length >= length) {
      if (length > (base.at(-1)?.length ?? 0)) base.push({ ...segment, length });
      return base;
    }
    base.push(segment);
  }
  if (length > (base.at(-1)?.length ?? 0)) base.push({ sessionId: sourceId, length });
  return base;
}
