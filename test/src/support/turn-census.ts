import { jetstreamManager } from "@nats-io/jetstream";
import { connect, type Msg, type Subscription } from "@nats-io/transport-node";
import { Redis } from "ioredis";
import type { Cluster } from "./cluster.js";
import { waitFor } from "./wait-for.js";

/**
 * What the hosts asked of Redis and NATS between two {@link TurnCensus.count}
 * calls, counted from outside the hosts (issue #32): a later change that adds
 * a round trip to a hop changes these numbers.
 */
export interface TurnCounts {
  /**
   * Redis commands naming the watched session (its actors' keys or addresses,
   * its idempotency keys), by command name in lower case; commands inside a
   * script are counted by name too (`MONITOR` lists them), the script itself as
   * `evalsha`.
   */
  readonly redis: Readonly<Record<string, number>>;
  /**
   * The Redis commands of {@link TurnCounts.redis} that a host sent (not run
   * inside a script): its round trips, by command name in lower case (a
   * pipeline of n commands counts n).
   */
  readonly redisSent: Readonly<Record<string, number>>;
  /** Messages published to a subject under the deployment's prefix (`troupe.>`), by stream or `core`. */
  readonly published: Readonly<Record<string, number>>;
  /** JetStream acks (`$JS.ACK.>`), by the stream of the acked message. */
  readonly acks: Readonly<Record<string, number>>;
  /**
   * JetStream API requests (`$JS.API.>`) by kind (`STREAM.INFO`, `DIRECT.GET`,
   * …); pull requests (`CONSUMER.MSG.NEXT`) are left out, as their pace is the
   * consumer's, not the turn's.
   */
  readonly jsApi: Readonly<Record<string, number>>;
  /** Messages each stream stored. */
  readonly stored: Readonly<Record<string, number>>;
  /**
   * Transcript messages handed to a host: direct-get answers from the
   * transcript stream and consumer deliveries of it.
   */
  readonly transcriptMessagesRead: number;
}

/** Counters over a deployment; see {@link startTurnCensus}. */
export interface TurnCensus {
  /** The counts so far: every NATS message sent before the call and every Redis command Redis ran before it. */
  count(): Promise<TurnCounts>;
  /**
   * Waits until every inbox consumer has nothing pending or unacknowledged:
   * every message of the turn processed. Its own reads are not counted.
   */
  settle(timeoutMs: number): Promise<void>;
  stop(): void;
}

/** The stream a subject of the deployment goes to (its subjects by the stream layout of `streamNames`). */
type StreamOf = (subject: string) => string;

/**
 * Starts counting what reaches Redis and NATS for one session (issue #32;
 * the way `agents/constant-cost.test.ts` counts too):
 * - Redis: a `MONITOR` connection; a command counts when one of its arguments
 *   names `sessionId` (the test's own connection, `cluster.redis`, is left out);
 * - NATS: a core subscription to `>` (it sees every publish, also one the
 *   stream drops as a duplicate), classified by subject, on a connection of
 *   its own that does not hear itself (`noEcho`): the census's own reads
 *   (stream counts, {@link TurnCensus.settle}) are not counted.
 *
 * @param cluster - the deployment (its `redis` is not counted; what goes out on its `nats` is).
 * @param sessionId - the session whose commands count (its run and tool actors' keys name it too).
 * @returns the census; {@link TurnCensus.stop} it.
 */
export async function startTurnCensus(cluster: Cluster, sessionId: string): Promise<TurnCensus> {
  const redis: Record<string, number> = {};
  const redisSent: Record<string, number> = {};
  const published: Record<string, number> = {};
  const acks: Record<string, number> = {};
  const jsApi: Record<string, number> = {};
  let transcriptMessagesRead = 0;
  const bump = (counts: Record<string, number>, key: string) => {
    counts[key] = (counts[key] ?? 0) + 1;
  };
  const monitorConnection = new Redis(cluster.servers.redisUrl);
  const ownSource = `127.0.0.1:${cluster.redis.stream.localPort}`;
  const monitor = await monitorConnection.monitor();
  // MONITOR lists commands in the order Redis ran them: once a marker shows,
  // every command run before it was counted.
  const markers = new Map<string, () => void>();
  let markerCount = 0;
  monitor.on("monitor", (_time: string, args: string[], source: string) => {
    const marker = markers.get(String(args[1]));
    if (marker !== undefined) {
      marker();
      return;
    }
    if (source === ownSource || !args.some((arg) => arg.includes(sessionId))) return;
    const name = String(args[0]).toLowerCase();
    bump(redis, name);
    // MONITOR names a command run by a script's `redis.call` with the source "lua".
    if (source !== "lua") bump(redisSent, name);
  });
  const streams = cluster.streams;
  const nats = await connect({ servers: cluster.servers.natsUrl, noEcho: true });
  const jsm = await jetstreamManager(nats);
  const streamOf = await streamResolver(cluster);
  const subscription: Subscription = nats.subscribe(">", {
    callback: (_error, message: Msg) => {
      const { subject } = message;
      const fromTranscript =
        message.headers?.get("Nats-Stream") === streams.transcript ||
        (message.reply ?? "").startsWith(`$JS.ACK.${streams.transcript}.`);
      if (fromTranscript) transcriptMessagesRead += 1;
      // A consumer's delivery (to its inbox, with the message's own subject).
      if (message.reply?.startsWith("$JS.ACK.") === true) return;
      if (subject.startsWith("$JS.ACK.")) bump(acks, subject.split(".")[2] ?? "?");
      else if (subject.startsWith("$JS.API.")) {
        const kind = subject.split(".").slice(2, 4).join(".");
        if (kind !== "CONSUMER.MSG") bump(jsApi, kind);
      } else if (subject.startsWith("troupe.") || subject.startsWith("_troupe.")) {
        bump(published, streamOf(subject));
      }
    },
  });
  const streamCount = async (name: string) => (await jsm.streams.info(name)).state.messages;
  return {
    async count(): Promise<TurnCounts> {
      // Every NATS message sent before these flushes' PONGs reached the callback.
      await cluster.nats.flush();
      await nats.flush();
      markerCount += 1;
      const markerKey = `troupe-test-marker:${markerCount}`;
      const shown = new Promise<void>((resolve) => markers.set(markerKey, resolve));
      await cluster.redis.exists(markerKey);
      await shown;
      markers.delete(markerKey);
      return {
        redis: { ...redis },
        redisSent: { ...redisSent },
        published: { ...published },
        acks: { ...acks },
        jsApi: { ...jsApi },
        stored: {
          inbox: await streamCount(streams.inbox),
          events: await streamCount(streams.events),
          transcript: await streamCount(streams.transcript),
          deltas: await streamCount(streams.deltas),
        },
        transcriptMessagesRead,
      };
    },
    async settle(timeoutMs: number): Promise<void> {
      await waitFor(
        async () => {
          const consumers = await jsm.consumers.list(streams.inbox).next();
          return consumers.every((info) => info.num_pending === 0 && info.num_ack_pending === 0);
        },
        { timeoutMs, intervalMs: 20, description: "every inbox message processed" },
      );
    },
    stop(): void {
      subscription.unsubscribe();
      void nats.close();
      monitorConnection.disconnect();
    },
  };
}

/**
 * `after - before` per key, keys whose difference is 0 left out.
 *
 * @param before - an earlier {@link TurnCensus.count}.
 * @param after - a later one.
 * @returns what happened in between.
 */
export function countsBetween(before: TurnCounts, after: TurnCounts): TurnCounts {
  const minus = (a: Readonly<Record<string, number>>, b: Readonly<Record<string, number>>) =>
    Object.fromEntries(
      Object.entries(a)
        .map(([key, value]) => [key, value - (b[key] ?? 0)] as const)
        .filter(([, value]) => value !== 0)
        .sort(([x], [y]) => x.localeCompare(y)),
    );
  return {
    redis: minus(after.redis, before.redis),
    redisSent: minus(after.redisSent, before.redisSent),
    published: minus(after.published, before.published),
    acks: minus(after.acks, before.acks),
    jsApi: minus(after.jsApi, before.jsApi),
    stored: minus(after.stored, before.stored),
    transcriptMessagesRead: after.transcriptMessagesRead - before.transcriptMessagesRead,
  };
}

/** Maps a subject to the stream whose subjects take it, `core` when none does. */
async function streamResolver(cluster: Cluster): Promise<StreamOf> {
  const filters: { stream: string; pattern: string[] }[] = [];
  for (const name of Object.values(cluster.streams) as string[]) {
    const info = await cluster.jsm.streams.info(name).catch(() => undefined);
    const subjects: readonly string[] = info?.config.subjects ?? [];
    for (const subject of subjects)
      filters.push({ stream: streamLabel(cluster, name), pattern: subject.split(".") });
  }
  return (subject) => {
    const tokens = subject.split(".");
    return filters.find(({ pattern }) => subjectMatches(pattern, tokens))?.stream ?? "core";
  };
}

/** The key of `cluster.streams` naming `stream` (`inbox`, `events`, …). */
function streamLabel(cluster: Cluster, stream: string): string {
  return Object.entries(cluster.streams).find(([, name]) => name === stream)?.[0] ?? stream;
}

/** NATS subject matching: `*` one token, `>` the rest (at least one). */
function subjectMatches(pattern: readonly string[], tokens: readonly string[]): boolean {
  for (let index = 0; index < pattern.length; index += 1) {
    const part = pattern[index];
    if (part === ">") return tokens.length > index;
    if (index >= tokens.length) return false;
    if (part !== "*" && part !== tokens[index]) return false;
  }
  return pattern.length === tokens.length;
}
