import { setTimeout as sleep } from "node:timers/promises";
import {
  DeliverPolicy,
  type DirectStreamAPI,
  type ConsumerMessages,
  type JetStreamClient,
  type JsMsg,
} from "@nats-io/jetstream";
import {
  TroupeError,
  transcriptSubject,
  withReadDeadline,
  type TranscriptEntry,
} from "@troupe/protocol";
import { decodeTranscriptEntry } from "@troupe/protocol";
import { eventLoopSlicer } from "@troupe/runtime/internal";
import { LRUCache } from "lru-cache";

/** Options of {@link JetStreamTranscriptReader}. */
export interface JetStreamTranscriptReaderOptions {
  /** How long a read waits for entries not yet stored, in ms. Default 10 000. */
  readonly waitMs?: number;
  /**
   * Most bytes of stored entries kept in the read cache (all sessions), in
   * bytes of their encoding. Default 32 MiB. Least recently read sessions go first.
   */
  readonly cacheMaxBytes?: number;
  /** A session not read for this long leaves the cache, in ms. Default 300 000 (5 min). */
  readonly cacheTtlMs?: number;
  /**
   * A read that misses more entries than this reads them with one ordered
   * consumer instead of one direct get each. Default 16.
   */
  readonly consumerReadThreshold?: number;
  /**
   * Deadline of one read through a consumer (creating it, asking it, taking
   * what it delivers), in ms. Default 30 000. A read past it fails
   * with `StoreReadTimeoutError` (retryable; the model call is retried).
   */
  readonly readTimeoutMs?: number;
}

/** Where a {@link JetStreamTranscriptReader} reads from; counts for tests and benchmarks. */
export interface TranscriptReadCounts {
  /** Reads answered from the cache alone. */
  cacheHits: number;
  /** Direct gets sent (`$JS.API.DIRECT.GET`), found or not. */
  directGets: number;
  /** Ordered consumers created. */
  consumers: number;
  /** Stored messages read (direct gets that found one, consumer deliveries). */
  messagesRead: number;
}

/** What the cache knows of one session's transcript. */
interface CachedTranscript {
  /**
   * Index of `entries[0]`: 0, or for a fork's own log the length of its shared
   * prefix (its own entries start there).
   */
  readonly offset: number;
  /** Entries offset … offset + n − 1, contiguous. */
  readonly entries: TranscriptEntry[];
  /** Entries stored after a gap (an outbox publishes in parallel), by index. */
  readonly ahead: Map<number, TranscriptEntry>;
  /** Stream sequence of the last message of this session read; 0 before any. */
  lastSeq: number;
  /** Encoded bytes of the messages read, for the cache's size bound. */
  bytes: number;
}

/** `_troupe.transcript.` — what a session id follows in a transcript subject. */
const TRANSCRIPT_SUBJECT_PREFIX = transcriptSubject("x").slice(0, -1);
const DEFAULT_CACHE_MAX_BYTES = 32 * 1024 * 1024;
const DEFAULT_CACHE_TTL_MS = 5 * 60 * 1000;
/** Waits between reads of entries not yet stored, in ms (the last one repeats). */
const WAIT_STEPS_MS = [1, 2, 4, 8, 16, 25];

/**
 * Reads a session's transcript from the transcript stream
 * (`_troupe.transcript.<sessionId>`), where session and run actors append
 * entries through their outboxes.
 *
 * Entries are immutable once stored (each has a fixed index; a re-published one
 * is the same entry), so the reader keeps what it read per session in an LRU
 * cache (bounded in bytes and idle time) and reads only the entries stored
 * since: a model call costs the same number of stream reads at message 10 and
 * at message 500 of a conversation (docs/decisions/0016). New entries come by JetStream
 * direct get (`next_by_subj` after the last stream sequence read, the stream
 * has `allow_direct`); many missing entries (a session this host has not read,
 * after a restart or a shard moving) come through one ordered consumer.
 *
 * @see https://docs.nats.io/nats-concepts/jetstream/streams#allowdirect — direct get
 * @see https://github.com/nats-io/nats-architecture-and-design/blob/main/adr/ADR-31.md — direct get requests
 */
export class JetStreamTranscriptReader {
  readonly #waitMs: number;
  readonly #consumerReadThreshold: number;
  readonly #readTimeoutMs: number;
  readonly #cache: LRUCache<string, CachedTranscript>;
  #direct: Promise<DirectStreamAPI> | undefined;
  /** Counters since construction (cache hits, direct gets, consumers, messages read). */
  readonly counts: TranscriptReadCounts = {
    cacheHits: 0,
    directGets: 0,
    consumers: 0,
    messagesRead: 0,
  };

  /**
   * @param js - JetStream client.
   * @param stream - transcript stream name (`StreamNames.transcript`).
   * @param options - wait, cache bounds, consumer threshold; or the wait in ms
   *   (the former signature).
   */
  constructor(
    private readonly js: JetStreamClient,
    private readonly stream: string,
    options: JetStreamTranscriptReaderOptions | number = {},
  ) {
    const resolved = typeof options === "number" ? { waitMs: options } : options;
    this.#waitMs = resolved.waitMs ?? 10_000;
    this.#consumerReadThreshold = resolved.consumerReadThreshold ?? 16;
    this.#readTimeoutMs = resolved.readTimeoutMs ?? 30_000;
    this.#cache = new LRUCache<string, CachedTranscript>({
      maxSize: resolved.cacheMaxBytes ?? DEFAULT_CACHE_MAX_BYTES,
      sizeCalculation: (cached) => Math.max(1, cached.bytes),
      ttl: resolved.cacheTtlMs ?? DEFAULT_CACHE_TTL_MS,
      updateAgeOnGet: true,
    });
  }

  /**
   * The first `count` entries of a session's transcript, in order. Entries
   * published more than once (after a crash) are counted once.
   *
   * @param sessionId - the session.
   * @param count - how many entries, from index 0 (entries `from … count − 1` are returned).
   * @param signal - aborts the wait.
   * @param from - the first index the session's own log holds: 0, or a fork's
   *   shared prefix length (docs/decisions/0043). Default 0.
   * @returns exactly `count − from` entries (a copy: the caller may change it).
   * @throws TroupeError `timeout` (retryable) when they are not all stored within `waitMs`.
   */
  async read(
    sessionId: string,
    count: number,
    signal: AbortSignal,
    from = 0,
  ): Promise<TranscriptEntry[]> {
    if (count <= from) return [];
    const slice = (known: CachedTranscript) =>
      known.entries.slice(Math.max(0, from - known.offset), count - known.offset);
    let cached = this.#cache.get(sessionId);
    if (cached !== undefined && from < cached.offset) {
      // The cache starts later than this read (it was filled from a compacted
      // session's cut): start it again from `from`.
      this.#cache.delete(sessionId);
      cached = undefined;
    }
    if (cached !== undefined && knownUpTo(cached) >= count) {
      this.counts.cacheHits += 1;
      return slice(cached);
    }
    const deadline = Date.now() + this.#waitMs;
    let rescanned = false;
    for (let waits = 0; ; waits += 1) {
      const known = await this.#extend(sessionId, count, from);
      if (knownUpTo(known) >= count) return slice(known);
      if (!rescanned && waits === 1) {
        // Still short after a first wait (an entry merely not stored yet comes
        // by then): read the session again from the start once — a cache that
        // skipped an entry stored out of index order heals here — then wait.
        rescanned = true;
        this.#cache.delete(sessionId);
        continue;
      }
      if (Date.now() > deadline || signal.aborted) {
        throw new TroupeError(
          "timeout",
          `the transcript of session ${sessionId} holds ${knownUpTo(known)} of the ${count} entries expected after ${this.#waitMs} ms`,
          {
            retryable: true,
            details: { sessionId, expected: count, found: knownUpTo(known) },
          },
        );
      }
      const waitMs = WAIT_STEPS_MS[Math.min(waits, WAIT_STEPS_MS.length - 1)]!;
      await sleep(waitMs, undefined, { signal }).catch(() => undefined);
    }
  }

  /**
   * Learns an entry this host's actors appended and JetStream stored (the
   * outbox of a session or run step, `ActorKindDefinition.onOutboxPublished`),
   * so a model call on this host does not read it back (docs/decisions/0016). Only
   * extends what is known: an entry of a session not cached is kept only when
   * it is entry 0. The stream position is not moved, so entries other hosts
   * stored are still read.
   *
   * @param sessionId - the session whose transcript the entry belongs to.
   * @param index - the entry's index (0-based).
   * @param entry - the entry.
   * @param bytes - its encoded size, for the cache bound.
   */
  observe(sessionId: string, index: number, entry: TranscriptEntry, bytes: number): void {
    let cached = this.#cache.get(sessionId);
    if (cached === undefined) {
      if (index !== 0) return;
      cached = { offset: 0, entries: [], ahead: new Map(), lastSeq: 0, bytes: 0 };
    }
    this.#addEntry(cached, index, entry, bytes);
    this.#cache.set(sessionId, cached);
  }

  /**
   * Forgets what is cached of one session (its actors left this host's memory).
   *
   * @param sessionId - the session.
   */
  forget(sessionId: string): void {
    this.#cache.delete(sessionId);
  }

  /** How many sessions the cache holds now. */
  get cachedSessions(): number {
    return this.#cache.size;
  }

  /** Forgets every cached transcript (tests; a host that wants its memory back). */
  clearCache(): void {
    this.#cache.clear();
  }

  /** Reads what was stored since the cached state, until `count` entries are known or none is left. */
  async #extend(sessionId: string, count: number, from: number): Promise<CachedTranscript> {
    let cached = this.#cache.get(sessionId);
    if (cached === undefined) {
      cached = { offset: from, entries: [], ahead: new Map(), lastSeq: 0, bytes: 0 };
    }
    const subject = transcriptSubject(sessionId);
    if (count - knownUpTo(cached) > this.#consumerReadThreshold) {
      await this.#readWithConsumer(cached, subject, count);
    } else {
      const direct = await this.#directApi();
      const tookLast =
        count - knownUpTo(cached) === 1 && (await this.#readLast(direct, cached, subject));
      while (!tookLast && knownUpTo(cached) < count) {
        this.counts.directGets += 1;
        let stored;
        try {
          stored = await direct.getMessage(this.stream, {
            seq: cached.lastSeq + 1,
            next_by_subj: subject,
          });
        } catch {
          // A stream without allow_direct (created by an older host) or a
          // server without direct get: read through a consumer instead.
          await this.#readWithConsumer(cached, subject, count);
          break;
        }
        if (stored === null) break;
        this.#add(cached, stored.seq, stored.data);
      }
    }
    if (cached.lastSeq > 0 || cached.entries.length > 0) this.#cache.set(sessionId, cached);
    return cached;
  }

  /**
   * The common case of one missing entry, in one request: the session's last
   * stored message (`last_by_subj`). When it is the missing entry, the read
   * position moves to it — entries are stored in index order (one outbox is
   * published in order on one connection, and an entry is appended only after
   * the entries before it were read), so nothing unread lies before it.
   *
   * @returns whether it was the missing entry.
   */
  async #readLast(
    direct: DirectStreamAPI,
    cached: CachedTranscript,
    subject: string,
  ): Promise<boolean> {
    this.counts.directGets += 1;
    let stored;
    try {
      stored = await direct.getMessage(this.stream, { last_by_subj: subject });
    } catch {
      return false;
    }
    if (stored === null) return false;
    const decoded = decodeTranscriptEntry(stored.data);
    if (decoded === undefined || decoded.index !== knownUpTo(cached)) return false;
    this.#add(cached, stored.seq, stored.data, decoded);
    return true;
  }

  async #readWithConsumer(cached: CachedTranscript, subject: string, count: number): Promise<void> {
    this.counts.consumers += 1;
    let messages: ConsumerMessages | undefined;
    const close = () => void messages?.close().catch(() => undefined);
    await withReadDeadline(
      async (signal) => {
        const consumer = await this.js.consumers.get(this.stream, {
          filter_subjects: subject,
          ...(cached.lastSeq === 0
            ? { deliver_policy: DeliverPolicy.All }
            : { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: cached.lastSeq + 1 }),
        });
        const info = await consumer.info();
        if (info.num_pending === 0 || signal.aborted) return;
        messages = await consumer.consume();
        // Decoding thousands of entries gives the event loop a turn every few ms.
        const slice = eventLoopSlicer();
        try {
          for await (const message of messages as AsyncIterable<JsMsg>) {
            if (signal.aborted) break;
            this.#add(cached, message.seq, message.data);
            await slice();
            if (message.info.pending === 0 || knownUpTo(cached) >= count) break;
          }
        } finally {
          close();
        }
      },
      { store: "stream", name: this.stream, key: subject, timeoutMs: this.#readTimeoutMs },
      close,
    );
  }

  /** Adds one stored message (any order, duplicates allowed) to what is known of its session. */
  #add(
    cached: CachedTranscript,
    seq: number,
    data: Uint8Array,
    stored = decodeTranscriptEntry(data),
  ): void {
    this.counts.messagesRead += 1;
    cached.lastSeq = Math.max(cached.lastSeq, seq);
    if (stored !== undefined) this.#addEntry(cached, stored.index, stored.entry, data.length);
  }

  /** Adds entry `index` (duplicates ignored, one after a gap waits in `ahead`). */
  #addEntry(cached: CachedTranscript, index: number, entry: TranscriptEntry, bytes: number): void {
    if (index < knownUpTo(cached) || cached.ahead.has(index)) return;
    cached.bytes += bytes;
    if (index > knownUpTo(cached)) {
      cached.ahead.set(index, entry);
      return;
    }
    cached.entries.push(entry);
    for (;;) {
      const next = cached.ahead.get(knownUpTo(cached));
      if (next === undefined) break;
      cached.ahead.delete(knownUpTo(cached));
      cached.entries.push(next);
    }
  }

  #directApi(): Promise<DirectStreamAPI> {
    this.#direct ??= this.js.jetstreamManager(false).then((manager) => manager.direct);
    return this.#direct;
  }
}

/** The index after the last contiguous entry known: `offset + entries.length`. */
function knownUpTo(cached: CachedTranscript): number {
  return cached.offset + cached.entries.length;
}

/**
 * Hands the transcript entries among a step's stored outbox items
 * (`_troupe.transcript.<sessionId>` subjects) to the reader's cache.
 *
 * @param reader - the host's transcript reader.
 * @param items - the outbox items JetStream stored (`subject`, `body`).
 */
export function observeTranscriptEntries(
  reader: Pick<JetStreamTranscriptReader, "observe">,
  items: readonly { readonly subject: string; readonly body: Uint8Array }[],
): void {
  for (const item of items) {
    if (!item.subject.startsWith(TRANSCRIPT_SUBJECT_PREFIX)) continue;
    const stored = decodeTranscriptEntry(item.body);
    if (stored === undefined) continue;
    const sessionId = item.subject.slice(TRANSCRIPT_SUBJECT_PREFIX.length);
    reader.observe(sessionId, stored.index, stored.entry, item.body.length);
  }
}
