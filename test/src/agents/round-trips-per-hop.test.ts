import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCluster, type Cluster } from "../support/cluster.js";
import { followSession } from "../support/session-events.js";
import { countsBetween, startTurnCensus, type TurnCounts } from "../support/turn-census.js";
import { waitFor } from "../support/wait-for.js";

// Issue #32, "Must show" 2: the Redis commands and NATS publishes of one warm
// turn, pinned, so a change that adds a round trip to a hop fails here (speed
// is measured by `npm run bench:turns`; this counts, it does not time).
// One bench-agent host (the benchmark's agent: a scripted model, a read tool
// answering at once). Each turn kind runs on its own session: turn 1 creates
// the session (and resolves its agent), turn 2 is the warm turn counted, turn
// 3 is counted again and must cost the same. A counted turn starts once every
// inbox message of the previous one was processed and ends with the
// session's `session.idle` and the inboxes drained again.
//
// Not in the counts: the confirmation of each actor's last outbox (one
// EVALSHA per actor the turn changed), which the host sends a tenth of the
// stream's duplicate window (120 s by default) after the publish, long after
// these turns; `agents/constant-cost.test.ts` counts it.

const SHARDS = 4;

const turns = {
  plain: { text: "hello", answer: "Hello! I am the Troupe demo agent. Ask me anything." },
  oneTool: { text: '/tool lookup {"key":"k"}', answer: undefined },
} as const;

describe("round trips per hop of a warm turn (issue #32)", () => {
  let cluster: Cluster;

  beforeAll(async () => {
    cluster = await startCluster({ shardCount: SHARDS });
    const host = await cluster.startHost({}, { entry: "test/src/fixtures/bench-agent-host.ts" });
    await cluster.waitForOwners([host.hostId], 60_000);
  }, 120_000);

  afterAll(async () => {
    await cluster?.stop();
  });

  /** Runs three turns of `kind` on a new session; returns the counts of turns 2 and 3. */
  async function countTurns(kind: keyof typeof turns): Promise<[TurnCounts, TurnCounts]> {
    const sessionId = `census-${kind}`;
    const census = await startTurnCensus(cluster, sessionId);
    const log = followSession(cluster.nats, sessionId);
    try {
      const counted: TurnCounts[] = [];
      for (let turn = 1; turn <= 3; turn += 1) {
        await census.settle(30_000);
        const before = await census.count();
        const completed = log.ofType("run.completed").length;
        await cluster.publishToSession(sessionId, {
          type: "user.message",
          text: turns[kind].text,
          clientMessageId: `${kind}-${turn}`,
        });
        await waitFor(() => log.ofType("run.completed").length > completed, {
          timeoutMs: 30_000,
          intervalMs: 2,
          description: `run.completed of turn ${turn} (${kind})`,
        });
        await log.until(
          (events) => events.filter((event) => event.type === "session.idle").length >= turn,
          30_000,
          `session.idle after turn ${turn}`,
        );
        await census.settle(30_000);
        if (turn > 1) counted.push(countsBetween(before, await census.count()));
      }
      const answer = turns[kind].answer;
      const texts = log.payloads("run.completed").map((payload) => payload.text);
      expect(texts).toHaveLength(3);
      if (answer !== undefined) expect(texts).toEqual([answer, answer, answer]);
      return [counted[0]!, counted[1]!];
    } finally {
      log.stop();
      census.stop();
    }
  }

  it("a plain turn: 4 hops", async () => {
    const [second, third] = await countTurns("plain");
    process.stderr.write(`round-trips: plain turn ${JSON.stringify(second)}\n`);
    expect(second.stored.inbox).toBe(4);
    expect(third).toEqual(second);
    expect(second).toEqual({
      // Per hop one commit script, and the model call's stream attempt. The
      // names inside the scripts: each commit reads the value, keeps the
      // previous generation in the history (LPUSH, LTRIM, PEXPIRE), writes
      // the new one and marks the actor dirty.
      redisSent: { evalsha: 5 },
      redis: { evalsha: 5, get: 4, incr: 1, lpush: 4, ltrim: 4, pexpire: 5, sadd: 4, set: 4 },
      // The user message, run.start, the model call's result, run.finished.
      stored: { inbox: 4, events: 4, transcript: 2, deltas: 1 },
      // …and the run.delta event also goes out live (core NATS, not stored).
      published: { inbox: 4, events: 5, transcript: 2, deltas: 1 },
      acks: { TROUPE_INBOX: 4 },
      jsApi: {},
      // A warm session's prompt comes from memory: no transcript read.
      transcriptMessagesRead: 0,
    });
  }, 120_000);

  it("a one-tool turn: 8 hops", async () => {
    const [second, third] = await countTurns("oneTool");
    process.stderr.write(`round-trips: one-tool turn ${JSON.stringify(second)}\n`);
    expect(second.stored.inbox).toBe(8);
    expect(third).toEqual(second);
    expect(second).toEqual({
      // 8 commits, 2 stream attempts (two model calls) and the tool call's
      // idempotency record (started, then finished). A
      // tool actor's key does not name the session (its id is a hash), its
      // commit's value does.
      redisSent: { evalsha: 12 },
      redis: {
        evalsha: 12,
        get: 6,
        hdel: 1,
        hget: 2,
        hset: 3,
        incr: 2,
        lpush: 7,
        ltrim: 6,
        pexpire: 10,
        sadd: 6,
        set: 8,
      },
      // user.message, run.start, model call 1, tool.start, the tool's result,
      // tool.finished, model call 2, run.finished.
      stored: { inbox: 8, events: 6, transcript: 4, deltas: 1 },
      published: { inbox: 8, events: 7, transcript: 4, deltas: 1 },
      acks: { TROUPE_INBOX: 8 },
      jsApi: {},
      transcriptMessagesRead: 0,
    });
  }, 120_000);
});
