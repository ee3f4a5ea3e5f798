import { setTimeout as sleep } from "node:timers/promises";
import { DeliverPolicy, type JetStreamClient } from "@nats-io/jetstream";
import { TroupeError, transcriptSubject, type TranscriptEntry } from "@troupe/protocol";
import { decodeTranscriptEntry } from "@troupe/protocol";

/**
 * Reads a session's transcript from the transcript stream
 * (`_troupe.transcript.<sessionId>`), where session and run actors append
 * entries through their outboxes.
 */
export class JetStreamTranscriptReader {
  /**
   * @param js - JetStream client.
   * @param stream - transcript stream name (`StreamNames.transcript`).
   * @param waitMs - how long to wait for entries not yet stored (default 10 000 ms).
   */
  constructor(
    private readonly js: JetStreamClient,
    private readonly stream: string,
    private readonly waitMs = 10_000,
  ) {}

  /**
   * The first `count` entries of a session's transcript, in order. Entries
   * published more than once (after a crash) are counted once.
   *
   * @param sessionId - the session.
   * @param count - how many entries, from index 0.
   * @param signal - aborts the wait.
   * @returns exactly `count` entries.
   * @throws TroupeError `timeout` (retryable) when they are not all stored within `waitMs`.
   */
  async read(sessionId: string, count: number, signal: AbortSignal): Promise<TranscriptEntry[]> {
    if (count <= 0) return [];
    const deadline = Date.now() + this.waitMs;
    for (;;) {
      const entries = await this.#readAll(sessionId, count);
      if (entries.length >= count) return entries.slice(0, count);
      if (Date.now() > deadline || signal.aborted) {
        throw new TroupeError(
          "timeout",
          `the transcript of session ${sessionId} holds ${entries.length} of the ${count} entries expected after ${this.waitMs} ms`,
          { retryable: true, details: { sessionId, expected: count, found: entries.length } },
        );
      }
      await sleep(25, undefined, { signal }).catch(() => undefined);
    }
  }

  async #readAll(sessionId: string, count: number): Promise<TranscriptEntry[]> {
    const consumer = await this.js.consumers.get(this.stream, {
      filter_subjects: transcriptSubject(sessionId),
      deliver_policy: DeliverPolicy.All,
    });
    const info = await consumer.info();
    if (info.num_pending === 0) return [];
    const byIndex = new Map<number, TranscriptEntry>();
    const messages = await consumer.consume();
    try {
      for await (const message of messages) {
        const stored = decodeTranscriptEntry(message.data);
        if (stored !== undefined && !byIndex.has(stored.index))
          byIndex.set(stored.index, stored.entry);
        if (message.info.pending === 0 || byIndex.size >= count) break;
      }
    } finally {
      await messages.close().catch(() => undefined);
    }
    const ordered: TranscriptEntry[] = [];
    for (let index = 0; byIndex.has(index); index += 1) ordered.push(byIndex.get(index)!);
    return ordered;
  }
}
