import { shardOf } from "@troupe/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCluster, type Cluster } from "../support/cluster.js";
import { followSession } from "../support/session-events.js";
import { countsBetween, startTurnCensus, type TurnCounts } from "../support/turn-census.js";
import { waitFor } from "../support/wait-for.js";

// Issue #12, "Must show" 3: the work the hosts do for message N of a session
// does not grow with N. Two hosts; the session's shard and its run's shard are
// owned by different hosts, so the run's model calls read the user's entries
// from the transcript stream (the run's own entries come from its outbox).
// For each measured message we count, from outside the hosts:
// - every Redis command naming the session (MONITOR, commands inside the
//   commit scripts included), by command name;
// - every JetStream API request (`$JS.API.>`: consumers created, direct gets,
//   stream reads), by kind, pull requests left out (their pace is the consumer's);
// - every transcript message handed to a host (a direct-get answer or a
//   consumer delivery from the transcript stream);
// - the messages each stream stored, and the publishes and acks behind them;
// and the session's and run's stored snapshot sizes (`support/turn-census.ts`
// counts, as it does for `round-trips-per-hop.test.ts`).
// The counts of message 10 must equal those of message 500.

const SHARDS = 8;
const TURNS = 500;
const MEASURED = [10, TURNS];

describe("the cost of a message does not grow with the conversation (issue #12)", () => {
  let cluster: Cluster;
  let sessionId: string;

  beforeAll(async () => {
    cluster = await startCluster({ shardCount: SHARDS });
    const first = await cluster.startHost({}, { entry: "test/src/fixtures/agent-host.ts" });
    const second = await cluster.startHost({}, { entry: "test/src/fixtures/agent-host.ts" });
    await cluster.waitForBalance([first.hostId, second.hostId], 60_000);
    const owners = await cluster.owners();
    const found = Array.from({ length: 200 }, (_, i) => `cost-${i}`).find(
      (id) =>
        owners[shardOf({ kind: "session", id }, SHARDS)] !==
        owners[shardOf({ kind: "run", id }, SHARDS)],
    );
    if (found === undefined) throw new Error("no session id whose run lives on the other host");
    sessionId = found;
  }, 120_000);

  afterAll(async () => {
    await cluster?.stop();
  });

  it("message 10 and message 500 of one session cost the same Redis commands, stream reads and stored messages", async () => {
    const watch = await startTurnCensus(cluster, sessionId);
    const log = followSession(cluster.nats, sessionId);
    const counts = new Map<number, TurnCounts>();
    const snapshotBytes = new Map<number, { session: number; run: number }>();
    try {
      for (let turn = 1; turn <= TURNS; turn += 1) {
        const measured = MEASURED.includes(turn);
        if (measured) await settle(cluster, sessionId);
        const before = measured ? await watch.count() : undefined;
        const idleBefore = log.ofType("session.idle").length;
        await cluster.publishToSession(sessionId, {
          type: "user.message",
          text: `message number ${turn}`,
          clientMessageId: `m-${turn}`,
        });
        await waitFor(() => log.ofType("session.idle").length > idleBefore, {
          timeoutMs: 30_000,
          intervalMs: 2,
          description: `the session idle after message ${turn}`,
        });
        if (measured && before !== undefined) {
          await settle(cluster, sessionId);
          counts.set(turn, countsBetween(before, await watch.count()));
          snapshotBytes.set(turn, {
            session: await storedBytes(cluster, `session/${sessionId}`),
            run: await storedBytes(cluster, `run/${sessionId}`),
          });
        }
      }
    } finally {
      log.stop();
      watch.stop();
    }
    const early = counts.get(MEASURED[0]!)!;
    const late = counts.get(MEASURED[1]!)!;
    process.stderr.write(`constant-cost: message 10 ${JSON.stringify(early)}\n`);
    // Something was counted: a turn commits the session and run and writes their records.
    expect(early.redis["evalsha"] ?? 0).toBeGreaterThanOrEqual(4);
    expect(early.stored["inbox"]).toBeGreaterThanOrEqual(3);
    expect(early.stored["transcript"]).toBe(2);
    // The run's host reads the user's entry from the stream: one direct get, one message.
    expect(early.jsApi["DIRECT.GET"]).toBe(1);
    expect(early.transcriptMessagesRead).toBe(1);
    expect(early.jsApi["CONSUMER.CREATE"] ?? 0).toBe(0);
    // …and message 500 costs exactly the same.
    expect(late).toEqual(early);
    const lastRun = log.payloads("run.completed").at(-1) as { text?: string } | undefined;
    expect(lastRun?.text).toBe(`You said: message number ${TURNS}`);
    // The records written per message are the same size at message 10 and 500,
    // within the digits of the counters and the bounded list of admitted ids.
    const sizes = [snapshotBytes.get(MEASURED[0]!)!, snapshotBytes.get(MEASURED[1]!)!];
    expect(sizes[1]!.run - sizes[0]!.run).toBeLessThanOrEqual(16);
    expect(sizes[1]!.session - sizes[0]!.session).toBeLessThanOrEqual(100 * 8 + 64);
  }, 600_000);
});

/** Waits until the session's and run's outboxes are confirmed (housekeeping done). */
async function settle(cluster: Cluster, sessionId: string): Promise<void> {
  await waitFor(
    async () => {
      const [session, run] = await Promise.all([
        cluster.snapshots.load(`session/${sessionId}`),
        cluster.snapshots.load(`run/${sessionId}`),
      ]);
      return (session?.outboxConfirmed ?? true) && (run?.outboxConfirmed ?? true);
    },
    { timeoutMs: 30_000, intervalMs: 50, description: "the outboxes confirmed" },
  );
}

async function storedBytes(cluster: Cluster, actor: string): Promise<number> {
  const stored = await cluster.snapshots.load(actor);
  return stored === undefined ? 0 : JSON.stringify(stored.record.state).length;
}
