import {
  decodeEvent,
  decodeTranscriptEntry,
  parseAddress,
  shardOf,
  transcriptSubject,
  type EventEnvelope,
} from "@troupe/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCluster, type Cluster } from "../support/cluster.js";
import { readStream } from "../support/read-stream.js";
import { followSession, sendUntilIdle } from "../support/session-events.js";
import { runTroupe } from "../support/troupe-cli.js";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

// Fork and resume (issue #19, docs/capabilities/fork.md): a fork shares the transcript
// prefix of its source without copying it and has its own future. The host's
// scripted model answers with the prompt it received (`ok-<text> [u:… a:…]`).
// The CLI test spawns `troupe` (tsx) twice and the SIGKILL test waits for a
// lease to expire, so those two carry explicit timeouts (60 s, 90 s).
const HOST = "test/src/fixtures/prompt-echo-host.ts";
const encode = (body: unknown) => new TextEncoder().encode(JSON.stringify(body));

describe("fork and resume", () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster({ shardCount: 8 });
    const host = await cluster.startHost({}, { entry: HOST });
    await cluster.waitForOwners([host.hostId], 20_000);
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  /** Publishes `session.fork` to `to` and waits for its verdict. */
  async function fork(
    to: string,
    payload: { from: string; atSequence?: number; atRunId?: string },
  ): Promise<EventEnvelope> {
    const log = followSession(cluster.nats, to);
    try {
      const ack = await cluster.js.publish(
        `troupe.session.${to}.in`,
        encode({ type: "session.fork", ...payload }),
      );
      expect(ack.duplicate).toBe(false);
      await log.until(
        (events) =>
          events.some(
            (event) => event.type === "command.settled" || event.type === "message.rejected",
          ),
        20_000,
        `verdict on the fork into ${to}`,
      );
      return log.events.find(
        (event) => event.type === "command.settled" || event.type === "message.rejected",
      )!;
    } finally {
      log.stop();
    }
  }

  /** Sends a message and returns the answer text of its run. */
  async function ask(sessionId: string, text: string): Promise<string> {
    const log = await sendUntilIdle(cluster, sessionId, text);
    const completed = log.payloads("run.completed");
    expect(completed).toHaveLength(1);
    return String(completed[0]!["text"]);
  }

  async function storedEvents(sessionId: string) {
    return (
      await readStream(cluster.js, cluster.streams.events, `troupe.session.${sessionId}.events.>`)
    ).map((message) => ({
      sequence: message.seq,
      event: decodeEvent(message.data, { contentType: message.contentType }),
    }));
  }

  async function storedTranscript(sessionId: string) {
    return (
      await readStream(cluster.js, cluster.streams.transcript, transcriptSubject(sessionId))
    ).map((message) => decodeTranscriptEntry(message.data)!);
  }

  it("forks at a run, at a sequence and at the end; each fork sees the shared prefix, then its own messages", async () => {
    expect(await ask("src-1", "one")).toBe("ok-one [u:one]");
    expect(await ask("src-1", "two")).toBe("ok-two [u:one a:ok-one u:two]");

    // At run r1: the prefix is the first exchange only.
    const atRun = await fork("fork-r1", { from: "src-1", atRunId: "r1" });
    expect(atRun.payload).toMatchObject({ command: "session.fork", verdict: "applied" });
    expect(await ask("fork-r1", "three")).toBe("ok-three [u:one a:ok-one u:three]");

    // At the end (no point): both runs.
    await fork("fork-end", { from: "src-1" });
    expect(await ask("fork-end", "four")).toBe("ok-four [u:one a:ok-one u:two a:ok-two u:four]");

    // At an events-stream sequence: that of r1's run.completed, so r2 is not in.
    const r1Completed = (await storedEvents("src-1")).find(
      ({ event }) =>
        event.type === "run.completed" && (event.payload as { runId: string }).runId === "r1",
    )!;
    await fork("fork-seq", { from: "src-1", atSequence: r1Completed.sequence });
    expect(await ask("fork-seq", "five")).toBe("ok-five [u:one a:ok-one u:five]");

    // The fork's events say where it came from.
    const forked = (await storedEvents("fork-r1")).map(({ event }) => event);
    // The source ran the host's default agent (named by no message), and so does the fork.
    expect(forked.find((event) => event.type === "session.created")?.payload).toEqual({
      sessionId: "fork-r1",
      forkedFrom: { sessionId: "src-1" },
    });
    expect(forked.find((event) => event.type === "session.forked")?.payload).toEqual({
      sessionId: "fork-r1",
      from: "src-1",
      transcriptLength: 2,
      transcriptBase: [{ sessionId: "src-1", length: 2 }],
      runId: "r1",
      atRunId: "r1",
    });

    // The original goes on independently: none of the forks' messages reach it.
    expect(await ask("src-1", "six")).toBe("ok-six [u:one a:ok-one u:two a:ok-two u:six]");

    // Nothing of the prefix is copied: the source's log holds it once, each
    // fork's log only its own entries, at the indices after the prefix.
    const source = await storedTranscript("src-1");
    expect(source.map((stored) => stored.index)).toEqual([0, 1, 2, 3, 4, 5]);
    const own = await storedTranscript("fork-r1");
    expect(own.map((stored) => [stored.index, stored.entry.role])).toEqual([
      [2, "user"],
      [3, "assistant"],
    ]);
    const all = await readStream(cluster.js, cluster.streams.transcript, "_troupe.transcript.>");
    const ones = all
      .map((message) => decodeTranscriptEntry(message.data)!)
      .filter((stored) => stored.entry.role === "user" && stored.entry.text === "one");
    expect(ones).toHaveLength(1);
  });

  it("a fork takes on the source's session.configure settings as they were at the point", async () => {
    const configure = async (sessionId: string, payload: Record<string, unknown>) => {
      const log = followSession(cluster.nats, sessionId);
      try {
        await cluster.js.publish(
          `troupe.session.${sessionId}.in`,
          encode({ type: "session.configure", ...payload }),
        );
        await log.until(
          (events) => events.some((event) => event.type === "command.settled"),
          20_000,
          `verdict on the configure of ${sessionId}`,
        );
        return log.events.find((event) => event.type === "command.settled")!.payload;
      } finally {
        log.stop();
      }
    };
    expect(await configure("src-cfg", { toolPolicy: { deny: ["charge*"] } })).toMatchObject({
      verdict: "applied",
      settings: { toolPolicy: { deny: ["charge*"] } },
    });
    expect(await ask("src-cfg", "one")).toBe("ok-one [u:one]");
    expect(await configure("src-cfg", { maxModelCalls: 3, policy: "steer" })).toMatchObject({
      settings: { toolPolicy: { deny: ["charge*"] }, maxModelCalls: 3, policy: "steer" },
    });

    // At r1: only the deny pattern configured before r1 ended; at the end: everything.
    await fork("fork-cfg-r1", { from: "src-cfg", atRunId: "r1" });
    await fork("fork-cfg-end", { from: "src-cfg" });
    const forkedOf = async (sessionId: string) =>
      (await storedEvents(sessionId)).find(({ event }) => event.type === "session.forked")!.event
        .payload as Record<string, unknown>;
    expect((await forkedOf("fork-cfg-r1"))["settings"]).toEqual({
      toolPolicy: { deny: ["charge*"] },
    });
    expect((await forkedOf("fork-cfg-end"))["settings"]).toEqual({
      toolPolicy: { deny: ["charge*"] },
      maxModelCalls: 3,
      policy: "steer",
    });
    // The fork's own configure adds to what it took on; a fork of it inherits both.
    expect(await configure("fork-cfg-r1", { toolPolicy: { ask: ["lookup"] } })).toMatchObject({
      settings: { toolPolicy: { ask: ["lookup"], deny: ["charge*"] } },
    });
    await fork("fork-cfg-r1-b", { from: "fork-cfg-r1" });
    expect((await forkedOf("fork-cfg-r1-b"))["settings"]).toEqual({
      toolPolicy: { ask: ["lookup"], deny: ["charge*"] },
    });
    expect(await ask("fork-cfg-r1-b", "two")).toBe("ok-two [u:one a:ok-one u:two]");
  });

  it("a fork of a fork shares both prefixes; a fork into the source's past skips the fork", async () => {
    await ask("src-2", "alpha");
    await fork("fork-2a", { from: "src-2" });
    await ask("fork-2a", "beta");
    await fork("fork-2b", { from: "fork-2a" });
    expect(await ask("fork-2b", "gamma")).toBe(
      "ok-gamma [u:alpha a:ok-alpha u:beta a:ok-beta u:gamma]",
    );
    const forked = (await storedEvents("fork-2b")).find(
      ({ event }) => event.type === "session.forked",
    );
    expect(forked?.event.payload).toMatchObject({
      transcriptLength: 4,
      transcriptBase: [
        { sessionId: "src-2", length: 2 },
        { sessionId: "fork-2a", length: 4 },
      ],
    });
    expect(await storedTranscript("fork-2b")).toHaveLength(2);
    // At fork-2a's own fork point (before its run r1 ended): fork-2a's segment is left out.
    const base2a = (await storedEvents("fork-2a")).find(
      ({ event }) => event.type === "session.forked",
    )!;
    const intoPast = await fork("fork-2c", { from: "fork-2a", atSequence: base2a.sequence });
    expect(intoPast.payload).toMatchObject({ verdict: "applied" });
    expect(await ask("fork-2c", "delta")).toBe("ok-delta [u:alpha a:ok-alpha u:delta]");
    const forked2c = (await storedEvents("fork-2c")).find(
      ({ event }) => event.type === "session.forked",
    );
    expect(forked2c?.event.payload).toMatchObject({
      transcriptLength: 2,
      transcriptBase: [{ sessionId: "src-2", length: 2 }],
    });
  });

  it("refuses an unknown source, a point out of range and a target that exists, with typed codes, changing nothing", async () => {
    await ask("src-3", "hello");
    const unknown = await fork("fork-3a", { from: "no-such-session" });
    expect(unknown.type).toBe("message.rejected");
    expect(unknown.payload).toMatchObject({ code: "unknown_session", type: "session.fork" });
    const outOfRange = await fork("fork-3b", { from: "src-3", atSequence: 1_000_000 });
    expect(outOfRange.payload).toMatchObject({ code: "fork_point_out_of_range" });
    const notEnded = await fork("fork-3c", { from: "src-3", atRunId: "r7" });
    expect(notEnded.payload).toMatchObject({ code: "fork_point_out_of_range" });
    const exists = await fork("src-3", { from: "src-1" });
    expect(exists.payload).toMatchObject({ code: "session_exists" });
    // Nothing changed: the refused targets are still new, the existing one unchanged.
    expect(await ask("fork-3a", "fresh")).toBe("ok-fresh [u:fresh]");
    expect(await ask("src-3", "again")).toBe("ok-again [u:hello a:ok-hello u:again]");
    const malformed = await cluster.js.publish(
      "troupe.session.fork-3d.in",
      encode({ type: "session.fork", from: "src-3", atSequence: 1, atRunId: "r1" }),
    );
    expect(malformed.seq).toBeGreaterThan(0);
    expect(await ask("fork-3d", "still new")).toBe("ok-still new [u:still new]");
  });

  it("troupe fork forks at a run into the id given, and refuses an unknown session with exit code 1", async () => {
    await ask("src-5", "first");
    await ask("src-5", "second");
    const home = await mkdtemp(join(tmpdir(), "troupe-fork-cli-"));
    try {
      const env = { TROUPE_NATS_URL: cluster.servers.natsUrl };
      const made = await runTroupe(
        ["fork", "src-5", "--at", "r1", "--to", "cli-fork-5", "--json"],
        {
          home,
          env,
        },
      );
      expect(made.code).toBe(0);
      expect(JSON.parse(made.stdout.trim())).toMatchObject({
        ok: true,
        verdict: "applied",
        sessionId: "cli-fork-5",
        from: "src-5",
        atRunId: "r1",
      });
      expect(await ask("cli-fork-5", "third")).toBe("ok-third [u:first a:ok-first u:third]");
      const refused = await runTroupe(["fork", "nobody-5", "--to", "cli-fork-6"], { home, env });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain("(unknown_session)");
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  }, 60_000);

  it("a host SIGKILLed during the fork's first model call: another host finishes it with the same prompt", async () => {
    const extra = await cluster.startHost({}, { entry: HOST });
    await cluster.waitForBalance(
      cluster.hosts.map((host) => host.hostId),
      20_000,
    );
    await ask("src-4", "base");
    const owners = await cluster.owners();
    const forkId = Array.from({ length: 100 }, (_, index) => `fork-kill-${index}`).find(
      (id) => owners[shardOf(parseAddress(`run/${id}`), cluster.shardCount)] === extra.hostId,
    )!;
    await fork(forkId, { from: "src-4" });
    const log = followSession(cluster.nats, forkId);
    await cluster.js.publish(
      `troupe.session.${forkId}.in`,
      encode({ type: "user.message", text: "slow-x" }),
    );
    await log.until(
      (events) => events.filter((event) => event.type === "run.delta").length >= 2,
      20_000,
      "two deltas",
    );
    extra.signal("SIGKILL");
    await log.until(
      (events) => events.some((event) => event.type === "session.idle"),
      40_000,
      "session.idle after the kill",
    );
    log.stop();
    const completed = (await storedEvents(forkId)).filter(
      ({ event }) => event.type === "run.completed",
    );
    expect(completed).toHaveLength(1);
    expect((completed[0]!.event.payload as { text: string }).text).toBe(
      "ok-slow-x [u:base a:ok-base u:slow-x] w1 w2 w3 w4 w5 w6 w7 w8 w9 w10",
    );
    expect((await storedTranscript(forkId)).map((stored) => stored.index)).toEqual([2, 3]);
  }, 90_000);
});
