import { JetStreamTranscriptReader, observeTranscriptEntries } from "@troupe/agents/internal";
import { encodeTranscriptEntry, transcriptSubject, type TranscriptEntry } from "@troupe/protocol";
import { ensureStreams } from "@troupe/runtime/internal";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCluster, type Cluster } from "../support/cluster.js";

// The transcript reader's cache and reads against a real JetStream (issue #12,
// decision 0016): what it reads for the entries it lacks, and that it is never
// wrong whatever order entries were stored in.

const user = (text: string): TranscriptEntry => ({ role: "user", text, messageId: `m-${text}` });

describe("JetStreamTranscriptReader (issue #12)", () => {
  let cluster: Cluster;

  beforeAll(async () => {
    cluster = await startCluster({ shardCount: 4 });
    await ensureStreams(cluster.jsm, cluster.streams, {
      journalRetentionMs: 3_600_000,
      eventRetentionMs: 3_600_000,
      transcriptRetentionMs: 0,
      duplicateWindowMs: 120_000,
    });
  }, 60_000);

  afterAll(async () => {
    await cluster?.stop();
  });

  const append = async (sessionId: string, index: number, entry: TranscriptEntry) => {
    const { bytes } = encodeTranscriptEntry(index, entry);
    await cluster.js.publish(transcriptSubject(sessionId), bytes);
  };
  const texts = (entries: TranscriptEntry[]) =>
    entries.map((entry) => ("text" in entry ? entry.text : ""));
  const signal = () => AbortSignal.timeout(10_000);

  it("reads each new entry once: one direct get for one new entry, nothing for a cached one", async () => {
    const reader = new JetStreamTranscriptReader(cluster.js, cluster.streams.transcript);
    await append("tr-1", 0, user("a"));
    expect(texts(await reader.read("tr-1", 1, signal()))).toEqual(["a"]);
    await append("tr-1", 1, user("b"));
    const before = { ...reader.counts };
    expect(texts(await reader.read("tr-1", 2, signal()))).toEqual(["a", "b"]);
    expect(reader.counts.directGets - before.directGets).toBe(1);
    expect(reader.counts.messagesRead - before.messagesRead).toBe(1);
    expect(texts(await reader.read("tr-1", 2, signal()))).toEqual(["a", "b"]);
    expect(reader.counts.directGets - before.directGets).toBe(1);
    expect(reader.counts.cacheHits - before.cacheHits).toBe(1);
    expect(reader.counts.consumers).toBe(0);
    // A passivated session is forgotten: its next read goes to the stream again.
    expect(reader.cachedSessions).toBe(1);
    reader.forget("tr-1");
    expect(reader.cachedSessions).toBe(0);
    expect(texts(await reader.read("tr-1", 2, signal()))).toEqual(["a", "b"]);
    expect(reader.counts.directGets - before.directGets).toBe(3);
  });

  it("takes entries its host appended from the stored outbox without reading them back", async () => {
    const reader = new JetStreamTranscriptReader(cluster.js, cluster.streams.transcript);
    const items = [0, 1].map((index) => ({
      subject: transcriptSubject("tr-2"),
      body: encodeTranscriptEntry(index, user(`own-${index}`)).bytes,
    }));
    for (const index of [0, 1]) await append("tr-2", index, user(`own-${index}`));
    observeTranscriptEntries(reader, items);
    expect(texts(await reader.read("tr-2", 2, signal()))).toEqual(["own-0", "own-1"]);
    expect(reader.counts).toMatchObject({ directGets: 0, consumers: 0, messagesRead: 0 });
    // An entry appended elsewhere is still read from the stream.
    await append("tr-2", 2, user("other-host"));
    expect(texts(await reader.read("tr-2", 3, signal()))).toEqual(["own-0", "own-1", "other-host"]);
    expect(reader.counts.directGets).toBeGreaterThanOrEqual(1);
  });

  it("reads many missing entries through one consumer, ignoring duplicates", async () => {
    const reader = new JetStreamTranscriptReader(cluster.js, cluster.streams.transcript);
    for (let index = 0; index < 40; index += 1) await append("tr-3", index, user(`e${index}`));
    await append("tr-3", 7, user("e7")); // re-published after a crash
    const entries = await reader.read("tr-3", 40, signal());
    expect(texts(entries)).toEqual(Array.from({ length: 40 }, (_, index) => `e${index}`));
    expect(reader.counts.consumers).toBe(1);
    expect(reader.counts.directGets).toBe(0);
  });

  it("is never wrong when entries were stored out of index order", async () => {
    const reader = new JetStreamTranscriptReader(cluster.js, cluster.streams.transcript);
    await append("tr-4", 0, user("zero"));
    expect(texts(await reader.read("tr-4", 1, signal()))).toEqual(["zero"]);
    await append("tr-4", 2, user("two"));
    await append("tr-4", 1, user("one"));
    // The last stored message is entry 1, the one missing: the reader takes it
    // and moves past entry 2, which it has not decoded; asking for 3 entries
    // then finds the stream short, reads the session again, and heals.
    expect(texts(await reader.read("tr-4", 2, signal()))).toEqual(["zero", "one"]);
    expect(texts(await reader.read("tr-4", 3, signal()))).toEqual(["zero", "one", "two"]);
  });

  it("waits for an entry not stored yet, and fails retryably when it never comes", async () => {
    const reader = new JetStreamTranscriptReader(cluster.js, cluster.streams.transcript, {
      waitMs: 300,
    });
    const pending = reader.read("tr-5", 1, signal());
    setTimeout(() => void append("tr-5", 0, user("late")), 50);
    expect(texts(await pending)).toEqual(["late"]);
    await expect(reader.read("tr-5", 2, signal())).rejects.toMatchObject({
      code: "timeout",
      retryable: true,
      details: { sessionId: "tr-5", expected: 2, found: 1 },
    });
  });

  it("reads from an earlier index than its cache starts at (a compacted session's summary, then its cut)", async () => {
    const reader = new JetStreamTranscriptReader(cluster.js, cluster.streams.transcript);
    for (const [index, text] of ["a", "b", "c", "d", "e"].entries()) {
      await append("tr-6", index, user(text));
    }
    // The summary is read first (entry 3 alone), then the window from the cut (1).
    expect(texts(await reader.read("tr-6", 4, signal(), 3))).toEqual(["d"]);
    expect(texts(await reader.read("tr-6", 5, signal(), 1))).toEqual(["b", "c", "d", "e"]);
    expect(texts(await reader.read("tr-6", 5, signal(), 3))).toEqual(["d", "e"]);
  });
});
