import { TroupeError } from "@troupe/protocol";
import type { TranscriptEntry } from "./transcript-entry.js";
import { readTranscriptSegments } from "./transcript-segments.js";

/**
 * Reads a session's transcript (the append-only log kept outside machine
 * snapshots) for the model-call handler.
 *
 * Contract: `read(sessionId, count, signal)` resolves to the first `count`
 * entries of the session in order (entry 0 first). It may resolve fewer when
 * the log does not hold `count` entries yet (the handler then fails the call
 * as retryable). It rejects with the signal's reason when `signal` aborts.
 */
export interface TranscriptReader {
  /**
   * @param sessionId - the session whose transcript to read.
   * @param count - how many entries, from the start (0 or more).
   * @param signal - aborts the read.
   * @param from - the first index the session's own log holds: 0, or a fork's
   *   shared prefix length (docs/decisions/0043); entries `from … count − 1` are returned.
   *   Default 0.
   * @returns the entries `from … count − 1`, in order.
   */
  read(
    sessionId: string,
    count: number,
    signal: AbortSignal,
    from?: number,
  ): Promise<TranscriptEntry[]>;
}

/**
 * A {@link TranscriptReader} over arrays in memory, for tests and the demo.
 *
 * @example
 * ```ts
 * const transcript = new InMemoryTranscriptReader();
 * transcript.append("s1", { role: "user", text: "hi", messageId: "m1" });
 * await transcript.read("s1", 1, AbortSignal.timeout(1000)); // [{ role: "user", … }]
 * ```
 */
export class InMemoryTranscriptReader implements TranscriptReader {
  readonly #entries = new Map<string, TranscriptEntry[]>();

  /**
   * Appends entries to a session's transcript.
   *
   * @param sessionId - the session.
   * @param entries - the entries, in order.
   */
  append(sessionId: string, ...entries: TranscriptEntry[]): void {
    const log = this.#entries.get(sessionId) ?? [];
    log.push(...entries);
    this.#entries.set(sessionId, log);
  }

  /**
   * Writes entries at `index`, `index + 1`, … of a session's log (a fork's own
   * log starts at its shared prefix length).
   *
   * @param sessionId - the session.
   * @param index - the index of the first entry.
   * @param entries - the entries, in order.
   */
  appendAt(sessionId: string, index: number, ...entries: TranscriptEntry[]): void {
    const log = this.#entries.get(sessionId) ?? [];
    entries.forEach((entry, offset) => (log[index + offset] = entry));
    this.#entries.set(sessionId, log);
  }

  /** See {@link TranscriptReader.read}. */
  read(
    sessionId: string,
    count: number,
    signal: AbortSignal,
    from = 0,
  ): Promise<TranscriptEntry[]> {
    if (signal.aborted) return Promise.reject(signal.reason as Error);
    return Promise.resolve((this.#entries.get(sessionId) ?? []).slice(from, count));
  }
}

/**
 * Reads the entries a model call is built from: `start … transcriptLength − 1`
 * of the session's transcript (`start` is 0, or a compacted session's cut).
 *
 * @param reader - the transcript reader.
 * @param input - `sessionId`, `transcriptLength` (entries) and, for a fork,
 *   `transcriptBase` (docs/decisions/0043) of the model call.
 * @param signal - aborts the read.
 * @param start - first entry to return; default 0.
 * @returns the entries `start … transcriptLength − 1`, or undefined when the signal aborted while reading.
 * @throws the reader's `TroupeError` as is; TroupeError `effect_failed`
 *   (retryable) when the reader threw anything else or returned too few entries.
 */
export async function readTranscriptEntries(
  reader: TranscriptReader,
  input: Parameters<typeof readTranscriptSegments>[1],
  signal: AbortSignal,
  start = 0,
): Promise<TranscriptEntry[] | undefined> {
  let entries: TranscriptEntry[];
  try {
    entries = await readTranscriptSegments(reader, input, signal, start);
  } catch (error) {
    if (signal.aborted) return undefined;
    if (TroupeError.isInstance(error)) throw error;
    throw new TroupeError(
      "effect_failed",
      // The reader's error is chained, not pasted in (one message, cause chained).
      `could not read the transcript of session ${input.sessionId}`,
      { retryable: true, cause: error, details: { sessionId: input.sessionId } },
    );
  }
  if (entries.length < input.transcriptLength - start) {
    throw new TroupeError(
      "effect_failed",
      `the transcript of session ${input.sessionId} has ${start + entries.length} entries, the model call needs ${input.transcriptLength}`,
      {
        retryable: true,
        details: {
          sessionId: input.sessionId,
          expected: input.transcriptLength,
          found: start + entries.length,
        },
      },
    );
  }
  return entries.slice(0, input.transcriptLength - start);
}
