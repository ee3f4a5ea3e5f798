import { TroupeError } from "@troupe/protocol";
import type { TranscriptEntry } from "./transcript-entry.js";

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
   * @returns the entries `0 … count − 1`, in order.
   */
  read(sessionId: string, count: number, signal: AbortSignal): Promise<TranscriptEntry[]>;
  /**
   * Entries `start … end − 1` (issue #19: a compacted session's model call
   * reads from its summary's `through` on). Optional: without it, callers read
   * `0 … end − 1` and drop the first `start`.
   *
   * @param sessionId - the session.
   * @param start - first index (0 or more).
   * @param end - one past the last index.
   * @param signal - aborts the read.
   * @returns the entries, in order (fewer when the log does not hold them yet).
   */
  readRange?(
    sessionId: string,
    start: number,
    end: number,
    signal: AbortSignal,
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

  /** See {@link TranscriptReader.read}. */
  read(sessionId: string, count: number, signal: AbortSignal): Promise<TranscriptEntry[]> {
    if (signal.aborted) return Promise.reject(signal.reason as Error);
    return Promise.resolve((this.#entries.get(sessionId) ?? []).slice(0, count));
  }
}

/**
 * Reads the entries a model call is built from: `0 … transcriptLength − 1` of
 * the session's transcript.
 *
 * @param reader - the transcript reader.
 * @param input - `sessionId` and `transcriptLength` (entries) of the model call.
 * @param signal - aborts the read.
 * @param start - first entry to return (issue #19); default 0.
 * @returns the entries `start … transcriptLength − 1`, or undefined when the signal aborted while reading.
 * @throws the reader's `TroupeError` as is; TroupeError `effect_failed`
 *   (retryable) when the reader threw anything else or returned too few entries.
 */
export async function readTranscriptEntries(
  reader: TranscriptReader,
  input: { readonly sessionId: string; readonly transcriptLength: number },
  signal: AbortSignal,
  start = 0,
): Promise<TranscriptEntry[] | undefined> {
  let entries: TranscriptEntry[];
  try {
    entries =
      start > 0 && reader.readRange !== undefined
        ? await reader.readRange(input.sessionId, start, input.transcriptLength, signal)
        : (await reader.read(input.sessionId, input.transcriptLength, signal)).slice(start);
  } catch (error) {
    if (signal.aborted) return undefined;
    if (TroupeError.isInstance(error)) throw error;
    throw new TroupeError(
      "effect_failed",
      // The reader's error is chained, not pasted in (issue #11: one message, cause chained).
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
