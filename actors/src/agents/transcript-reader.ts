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
