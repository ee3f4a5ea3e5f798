import {
  decodeEvent,
  decodeTranscriptEntry,
  parseAddress,
  shardOf,
  transcriptSubject,
} from "@troupe/protocol";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCluster, type Cluster } from "../support/cluster.js";
import { readStream } from "../support/read-stream.js";
import { followSession } from "../support/session-events.js";
import { runTroupe } from "../support/troupe-cli.js";
import { waitFor } from "../support/wait-for.js";

// Issue #19, "Must show": a SIGKILL of the owning host in the middle of a
// compaction. The run actor's host is killed while the scripted model writes
// the summary; the other host re-runs the model call (compaction included),
// and the journal keeps one result: one summary entry, one session.compacted,
// and the run completes.

const HOST = "test/src/fixtures/compaction-agent-host.ts";
const SHARDS = 8;
// Each message is 200 characters: 54 estimated tokens per user entry, 57 per
// answer. With a budget of 240 tokens the third message's prompt (5 entries,
// 280) is over it; after the compaction (80 tokens kept: the last user turn),
// the fourth message's prompt (summary + 3 entries, 218) is not.
const text = (n: number) => `message ${n} ${"x".repeat(190)}`;

describe("context compaction survives a crash (issue #19)", () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster({ shardCount: SHARDS });
  }, 60_000);
  afterAll(async () => {
    await cluster?.stop();
  });

  it("a host SIGKILLed while it summarises: one summary entry, one session.compacted, the run completes", async () => {
    const env = {
      TROUPE_MAX_PROMPT_TOKENS: "240",
      TROUPE_KEEP_RECENT_TOKENS: "80",
      TROUPE_SUMMARY_CHUNK_DELAY_MS: "150",
    };
    const hostOptions = { entry: HOST, env, readyTimeoutMs: 120_000 };
    const survivor = await cluster.startHost({}, hostOptions);
    const victim = await cluster.startHost({}, hostOptions);
    await cluster.waitForBalance([survivor.hostId, victim.hostId], 30_000);
    const owners = await cluster.owners();
    const sessionId = Array.from({ length: 200 }, (_, i) => `compact-${i}`).find(
      (id) => owners[shardOf(parseAddress(`run/${id}`), SHARDS)] === victim.hostId,
    )!;
    const log = followSession(cluster.nats, sessionId);
    const idleAfter = async (n: number) => {
      await cluster.publishToSession(sessionId, {
        type: "user.message",
        text: text(n),
        clientMessageId: `m-${n}`,
      });
      await log.until(
        (events) => events.filter((event) => event.type === "session.idle").length >= n,
        30_000,
        `session.idle after message ${n}`,
      );
    };
    await idleAfter(1);
    await idleAfter(2);
    expect(log.ofType("session.compacted")).toHaveLength(0);

    // Message 3 is over budget: its model call summarises first; kill the run's host meanwhile.
    await cluster.publishToSession(sessionId, {
      type: "user.message",
      text: text(3),
      clientMessageId: "m-3",
    });
    await waitFor(() => victim.stderr().includes("compaction: summarising"), {
      timeoutMs: 20_000,
      description: "the victim host summarising",
    });
    victim.signal("SIGKILL");
    await victim.exited;
    await log.until(
      (events) => events.filter((event) => event.type === "session.idle").length >= 3,
      45_000,
      "session.idle after message 3",
    );
    expect(survivor.stderr()).toContain("compaction: summarising");

    // Message 4 reads the summary and the entries after its cut, without compacting again.
    await idleAfter(4);
    log.stop();

    const stored = async (type: string) =>
      (
        await readStream(
          cluster.js,
          cluster.streams.events,
          `troupe.session.${sessionId}.events.${type}`,
        )
      ).map((message) => decodeEvent(message.data, { contentType: message.contentType }));
    const compacted = await stored("session.compacted");
    expect(compacted).toHaveLength(1);
    // Entries: 0 m1, 1 a1, 2 m2, 3 a2, 4 m3 → the summary at 5 covers 0…3 (the last
    // user turn, 54 tokens, is what fits in 80); the answer to m3 is entry 6.
    expect(compacted[0]!.payload).toMatchObject({
      sessionId,
      summaryIndex: 5,
      through: 4,
      reason: "budget",
      model: "troupe.scripted:script",
    });
    const { tokensBefore, tokensAfter } = compacted[0]!.payload as {
      tokensBefore: number;
      tokensAfter: number;
    };
    expect(tokensBefore).toBeGreaterThan(240);
    expect(tokensAfter).toBeLessThanOrEqual(240);

    const completed = (await stored("run.completed")).map(
      (event) => (event.payload as { text: string }).text,
    );
    expect(completed).toEqual([
      `You said: ${text(1)}`,
      `You said: ${text(2)}`,
      `You said: ${text(3)} [summary]`,
      `You said: ${text(4)} [summary]`,
    ]);

    const transcript = (
      await readStream(cluster.js, cluster.streams.transcript, transcriptSubject(sessionId))
    ).map((message) => decodeTranscriptEntry(message.data)!);
    const summaries = transcript.filter((stored) => stored.entry.role === "summary");
    expect(summaries).toHaveLength(1);
    expect(summaries[0]).toMatchObject({ index: 5, entry: { role: "summary", through: 4 } });
    const summary = summaries[0]!.entry as { text: string };
    expect(summary.text).toBe("Summary: the user sent numbered messages and each was echoed back.");
    // The originals stay in the log: eight entries of the four turns and the summary.
    expect(new Set(transcript.map((stored) => stored.index)).size).toBe(9);
  }, 300_000);

  it("troupe compact: the idle session's next model call compacts, keeping the latest user turn", async () => {
    // The survivor of the test above serves every shard by now.
    const sessionId = "manual-1";
    const log = followSession(cluster.nats, sessionId);
    const home = await mkdtemp(join(tmpdir(), "troupe-compact-"));
    const connection = ["--nats", cluster.servers.natsUrl, "--redis", cluster.servers.redisUrl];
    try {
      for (const n of [1, 2]) {
        await cluster.publishToSession(sessionId, { type: "user.message", text: `hi ${n}` });
        await log.until(
          (events) => events.filter((event) => event.type === "session.idle").length >= n,
          60_000,
          `session.idle after message ${n}`,
        );
      }
      const compact = await runTroupe(["compact", sessionId, ...connection], { home });
      expect(compact.stdout + compact.stderr).toContain(
        "manual-1 compacts at its next model call (watch for session.compacted)",
      );
      expect(compact.code).toBe(0);
      // Idle: nothing happens until the next message's model call.
      expect(log.ofType("session.compacted")).toHaveLength(0);
      await cluster.publishToSession(sessionId, { type: "user.message", text: "hi 3" });
      await log.until(
        (events) => events.filter((event) => event.type === "session.idle").length >= 3,
        60_000,
        "session.idle after message 3",
      );
      // Entries 0 hi 1, 1 answer, 2 hi 2, 3 answer, 4 hi 3: the summary covers 0…3.
      expect(log.payloads("session.compacted")).toEqual([
        expect.objectContaining({ reason: "manual", through: 4, summaryIndex: 5 }),
      ]);
      expect(log.payloads("run.completed").at(-1)).toMatchObject({
        text: "You said: hi 3 [summary]",
      });
      const tail = await runTroupe(
        ["tail", sessionId, "--from", "1", "--until-idle", ...connection],
        { home },
      );
      expect(tail.stdout).toContain("⇲ compacted (manual): entries 0–3 summarised");
    } finally {
      log.stop();
      await rm(home, { recursive: true, force: true });
    }
  }, 180_000);
});
