import type { TranscriptSegment } from "@troupe/protocol";
import type { TranscriptEntry } from "./transcript-entry.js";

/** What this needs of a `TranscriptReader` (named here: the reader's module imports this one). */
interface SegmentReader {
  read(
    sessionId: string,
    count: number,
    signal: AbortSignal,
    from?: number,
  ): Promise<TranscriptEntry[]>;
}

/**
 * Reads entries `start … transcriptLength − 1` of a session's transcript across
 * its fork base (docs/decisions/0043): each base segment's entries
 * from the log of the session it names (at the same indices), the rest from
 * the session's own log, which starts at the base's end. Nothing of a shared
 * prefix is ever copied: a fork reads it where it was written.
 *
 * @param reader - the transcript reader.
 * @param input - `sessionId`, `transcriptLength` (entries) and `transcriptBase`
 *   (segments; empty or absent = the session's own log only).
 * @param signal - aborts the reads.
 * @param start - the first index to read (0, or a compacted session's cut); default 0.
 * @returns the entries in index order; fewer when a log holds fewer (the caller checks).
 * @throws what the reader throws.
 */
export async function readTranscriptSegments(
  reader: SegmentReader,
  input: {
    readonly sessionId: string;
    readonly transcriptLength: number;
    readonly transcriptBase?: readonly TranscriptSegment[] | undefined;
  },
  signal: AbortSignal,
  start = 0,
): Promise<TranscriptEntry[]> {
  const base = input.transcriptBase ?? [];
  if (base.length === 0) {
    if (start === 0) return reader.read(input.sessionId, input.transcriptLength, signal);
    return reader.read(input.sessionId, input.transcriptLength, signal, start);
  }
  const parts: { sessionId: string; from: number; to: number }[] = [];
  let from = 0;
  for (const segment of base) {
    const to = Math.min(segment.length, input.transcriptLength);
    if (to > Math.max(from, start)) {
      parts.push({ sessionId: segment.sessionId, from: Math.max(from, start), to });
    }
    from = segment.length;
  }
  if (input.transcriptLength > Math.max(from, start)) {
    parts.push({
      sessionId: input.sessionId,
      from: Math.max(from, start),
      to: input.transcriptLength,
    });
  }
  const read = await Promise.all(
    parts.map(async (part) => {
      const entries = await reader.read(part.sessionId, part.to, signal, part.from);
      return { part, entries };
    }),
  );
  const entries: TranscriptEntry[] = [];
  for (const { part, entries: partEntries } of read) {
    entries.push(...partEntries.slice(0, part.to - part.from));
    // A log that holds fewer entries ends the read here: the caller reports the shortfall.
    if (partEntries.length < part.to - part.from) break;
  }
  return entries;
}
