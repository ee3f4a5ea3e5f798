import type { Msg, Subscription } from "@nats-io/transport-node";
import { shardOf } from "@troupe/protocol";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCluster, type Cluster } from "../support/cluster.js";
import { followSession } from "../support/session-events.js";
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
// - the messages each stream stored;
// and the session's and run's stored snapshot sizes.
// The counts of message 10 must equal those of message 500.

const SHARDS = 8;
const TURNS = 500;
const MEASURED = [10, TURNS];

interface TurnCounts {
  redis: Record<string, number>;
  jsApi: Record<string, number>;
  transcriptMessagesRead: number;
  stored: Record<string, number>;
}

describe("the cost of a message does not grow with the conversation (issue #12)", () => {
  let cluster: Cluster;
  let monitor: Redis;
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
    monitor = new Redis(cluster.servers.redisUrl);
  }, 120_000);

  afterAll(async () => {
    monitor?.disconnect();
    await cluster?.stop();
  });

  it("message 10 and message 500 of one session cost the same Redis commands, stream reads and stored messages", async () => {
    const watch = await startWatching(cluster, monitor, sessionId);
    const log = followSession(cluster.nats, sessionId);
    const counts = new Map<number, TurnCounts>();
    const snapshotBytes = new Map<number, { session: number; run: number }>();
    try {
      for (let turn = 1; turn <= TURNS; turn += 1) {
        const measured = MEASURED.includes(turn);
        if (measured) await settle(cluster, sessionId);
        const before = measured ? await watch.snapshot() : undefined;
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
          counts.set(turn, difference(before, await watch.snapshot()));
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

function difference(before: TurnCounts, after: TurnCounts): TurnCounts {
  const minus = (a: Record<string, number>, b: Record<string, number>) =>
    Object.fromEntries(
      Object.entries(a)
        .map(([key, value]) => [key, value - (b[key] ?? 0)] as const)
        .filter(([, value]) => value !== 0),
    );
  return {
    redis: minus(after.redis, before.redis),
    jsApi: minus(after.jsApi, before.jsApi),
    transcriptMessagesRead: after.transcriptMessagesRead - before.transcriptMessagesRead,
    stored: minus(after.stored, before.stored),
  };
}

/** Counters that only grow; `snapshot()` copies them (after a flush of the subscriptions). */
async function startWatching(cluster: Cluster, monitor: Redis, sessionId: string) {
  const redis: Record<string, number> = {};
  const jsApi: Record<string, number> = {};
  let transcriptMessagesRead = 0;
  // The test's own reads (settle, snapshot sizes) go through cluster.redis: not counted.
  const ownSource = `127.0.0.1:${cluster.redis.stream.localPort}`;
  const redisMonitor = await monitor.monitor();
  // A marker command: MONITOR lists commands in the order Redis ran them, so
  // once the marker shows, every command before it was counted.
  const markers = new Map<string, () => void>();
  let markerCount = 0;
  redisMonitor.on("monitor", (_time: string, args: string[], source: string) => {
    const marker = markers.get(String(args[1]));
    if (marker !== undefined) {
      marker();
      return;
    }
    if (source === ownSource || !args.some((arg) => arg.includes(sessionId))) return;
    const name = String(args[0]).toLowerCase();
    redis[name] = (redis[name] ?? 0) + 1;
  });
  const streams = cluster.streams;
  const subscriptions: Subscription[] = [
    cluster.nats.subscribe("$JS.API.>", {
      callback: (_error, message: Msg) => {
        const kind = message.subject.split(".").slice(2, 4).join(".");
        if (kind === "CONSUMER.MSG") return;
        jsApi[kind] = (jsApi[kind] ?? 0) + 1;
      },
    }),
    cluster.nats.subscribe("_INBOX.>", {
      callback: (_error, message: Msg) => {
        const fromTranscript =
          message.headers?.get("Nats-Stream") === streams.transcript ||
          (message.reply ?? "").startsWith(`$JS.ACK.${streams.transcript}.`);
        if (fromTranscript) transcriptMessagesRead += 1;
      },
    }),
  ];
  const streamCount = async (name: string) => (await cluster.jsm.streams.info(name)).state.messages;
  return {
    async snapshot(): Promise<TurnCounts> {
      // Every NATS message delivered before the flush's PONG reached the callbacks.
      await cluster.nats.flush();
      markerCount += 1;
      const markerKey = `troupe-test-marker:${sessionId}:${markerCount}`;
      const shown = new Promise<void>((resolve) => markers.set(markerKey, resolve));
      await monitor.exists(markerKey);
      await shown;
      markers.delete(markerKey);
      return {
        redis: { ...redis },
        jsApi: { ...jsApi },
        transcriptMessagesRead,
        stored: {
          inbox: await streamCount(streams.inbox),
          events: await streamCount(streams.events),
          transcript: await streamCount(streams.transcript),
          deltas: await streamCount(streams.deltas),
        },
      };
    },
    stop(): void {
      for (const subscription of subscriptions) subscription.unsubscribe();
      redisMonitor.disconnect();
    },
  };
}
