/**
 * What a session costs to keep (issue #12, "Memory and storage per session"):
 * one host (`test/src/fixtures/bench-agent-host.ts`, agent `bench`), N new
 * sessions with one `hello` turn each (user message → `session.idle`), then the
 * passivation period. Reports the host's heap (after two forced collections) and
 * RSS before, after and after passivation, the heap per active actor, and the
 * Redis keys a session leaves: `used_memory`, `DBSIZE` and, per key pattern
 * (ids replaced by `<id>`), count, type, TTL and `MEMORY USAGE` bytes.
 *
 * Run: `cd test && node --import tsx --conditions=@troupe/source
 * src/bench/turns/measure-session-cost.ts [sessions=2000] [passivateAfterMs=5000]
 * [historyRetentionMs]` — with the last, the Redis figures are taken again once
 * the kept generations expired.
 * Prints a table and a last line of JSON.
 */
import { loadavg } from "node:os";
import { decodeEvent } from "@troupe/protocol";
import type { Redis } from "ioredis";
import { startCluster, type Cluster } from "../../support/cluster.js";
import type { HostProcess } from "../../support/host-process.js";
import { waitFor } from "../../support/wait-for.js";

const BENCH_HOST = "test/src/fixtures/bench-agent-host.ts";
/** Sessions whose turns are in flight at once. */
const IN_FLIGHT = 100;

/** One heap report of the host (see the fixture's SIGWINCH handler). */
export interface HeapReport {
  /** Before the forced collections (what the host holds left to itself). */
  readonly heapUsedBeforeCollectBytes: number;
  readonly rssBeforeCollectBytes: number;
  readonly heapUsedBytes: number;
  readonly rssBytes: number;
  readonly externalBytes: number;
  readonly activeActors: number;
  /** The heap snapshot written with the report (with `TROUPE_BENCH_HEAP_SNAPSHOT_DIR`). */
  readonly snapshot?: string;
}

/** Keys of one pattern that the measured sessions added. */
export interface KeyPatternCost {
  readonly pattern: string;
  readonly type: string;
  readonly count: number;
  /** Sum of `MEMORY USAGE` (bytes). */
  readonly bytes: number;
  /** Keys with a TTL among them. */
  readonly withTtl: number;
}

/** What {@link measureSessionCost} reports. */
export interface SessionCostResult {
  readonly sessions: number;
  readonly turnsPerSecond: number;
  readonly heap: { before: HeapReport; after: HeapReport; passivated: HeapReport };
  /** (heap after − heap before) / actors in memory after, in bytes. */
  readonly heapPerActiveActorBytes: number;
  /** (heap after passivation − heap before) / sessions, in bytes. */
  readonly heapLeftPerSessionBytes: number;
  readonly redis: {
    readonly usedMemoryBeforeBytes: number;
    readonly usedMemoryAfterBytes: number;
    readonly bytesPerSession: number;
    readonly keysPerSession: number;
    readonly patterns: readonly KeyPatternCost[];
    /** The same once `historyRetentionMs` has passed (undefined when not waited for). */
    readonly pastHistoryRetention:
      | {
          readonly bytesPerSession: number;
          readonly keysPerSession: number;
          readonly patterns: readonly KeyPatternCost[];
        }
      | undefined;
  };
  readonly streamBytesPerTurn: number;
  readonly loadAverage: readonly number[];
}

/**
 * Runs the measurement on a fresh cluster.
 *
 * @param sessions - new sessions, one `hello` turn each.
 * @param passivateAfterMs - the host's `passivateAfterMs`.
 */
export async function measureSessionCost(
  sessions: number,
  passivateAfterMs: number,
  historyRetentionMs?: number,
): Promise<SessionCostResult> {
  await using cluster = await startCluster({ shardCount: 64 });
  const host = await cluster.startHost(
    {
      passivateAfterMs,
      maxActiveActors: 1_000_000,
      ...(historyRetentionMs === undefined ? {} : { historyRetentionMs }),
    },
    {
      entry: BENCH_HOST,
      // The box is shared: a loaded machine starts a host slowly.
      readyTimeoutMs: 120_000,
      env: {
        TROUPE_BENCH_HEAP_REPORT: "1",
        NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --expose-gc`,
        TROUPE_BENCH_HEAP_SNAPSHOT_DIR: process.env.TROUPE_BENCH_HEAP_SNAPSHOT_DIR ?? "",
      },
    },
  );
  await cluster.waitForOwners([host.hostId], 30_000);
  const idle = countIdleSessions(cluster);
  // Warm-up: loads the code paths and every shard's keys, then passivates.
  await runTurns(cluster, idle, "warm", 200);
  await waitForPassivation(host, passivateAfterMs);
  const keysBefore = new Set(await scanKeys(cluster.redis));
  const usedMemoryBeforeBytes = await usedMemory(cluster.redis);
  const streamBytesBefore = await streamBytes(cluster);
  const before = await heapReport(host);
  const startedAt = performance.now();
  await runTurns(cluster, idle, "measure", sessions);
  const elapsedMs = performance.now() - startedAt;
  const after = await heapReport(host);
  const streamBytesAfter = await streamBytes(cluster);
  const passivated = await waitForPassivation(host, passivateAfterMs);
  const usedMemoryAfterBytes = await usedMemory(cluster.redis);
  const added = (await scanKeys(cluster.redis)).filter((key) => !keysBefore.has(key));
  const patterns = await describeKeys(cluster.redis, added);
  let pastHistoryRetention: SessionCostResult["redis"]["pastHistoryRetention"];
  if (historyRetentionMs !== undefined && historyRetentionMs > 0) {
    // The last commit was before the passivation finished: wait out the retention.
    await new Promise((resolve) => setTimeout(resolve, historyRetentionMs + 1000));
    const left = (await scanKeys(cluster.redis)).filter((key) => !keysBefore.has(key));
    pastHistoryRetention = {
      bytesPerSession: ((await usedMemory(cluster.redis)) - usedMemoryBeforeBytes) / sessions,
      keysPerSession: left.length / sessions,
      patterns: await describeKeys(cluster.redis, left),
    };
  }
  idle.stop();
  return {
    sessions,
    turnsPerSecond: (sessions / elapsedMs) * 1000,
    heap: { before, after, passivated },
    heapPerActiveActorBytes:
      (after.heapUsedBytes - before.heapUsedBytes) / Math.max(1, after.activeActors),
    heapLeftPerSessionBytes: (passivated.heapUsedBytes - before.heapUsedBytes) / sessions,
    redis: {
      usedMemoryBeforeBytes,
      usedMemoryAfterBytes,
      bytesPerSession: (usedMemoryAfterBytes - usedMemoryBeforeBytes) / sessions,
      keysPerSession: added.length / sessions,
      patterns,
      pastHistoryRetention,
    },
    streamBytesPerTurn: (streamBytesAfter - streamBytesBefore) / sessions,
    loadAverage: loadavg(),
  };
}

interface IdleCounter {
  readonly idle: Set<string>;
  stop(): void;
}

function countIdleSessions(cluster: Cluster): IdleCounter {
  const idle = new Set<string>();
  const subscription = cluster.nats.subscribe("troupe.session.*.events.>", {
    callback: (error, message) => {
      if (error !== null) return;
      const event = decodeEvent(message.data, {
        contentType: message.headers?.get("Content-Type") || undefined,
      });
      if (event.type === "session.idle") idle.add(message.subject.split(".")[2] ?? "");
    },
  });
  return { idle, stop: () => subscription.unsubscribe() };
}

/** `count` new sessions `<label>-<i>`, one hello turn each, `IN_FLIGHT` at a time. */
async function runTurns(
  cluster: Cluster,
  counter: IdleCounter,
  label: string,
  count: number,
): Promise<void> {
  const body = new TextEncoder().encode('{"type":"user.message","text":"hello"}');
  const done = () => [...counter.idle].filter((id) => id.startsWith(`${label}-`)).length;
  let sent = 0;
  while (sent < count) {
    const window = Math.min(IN_FLIGHT, count - sent);
    await Promise.all(
      Array.from({ length: window }, (_, index) =>
        cluster.js.publish(`troupe.session.${label}-${sent + index}.in`, body),
      ),
    );
    sent += window;
    await waitFor(() => done() >= sent - IN_FLIGHT / 2, {
      timeoutMs: 120_000,
      intervalMs: 5,
      description: `${sent - IN_FLIGHT / 2} ${label} sessions idle`,
    });
  }
  await waitFor(() => done() >= count, {
    timeoutMs: 120_000,
    intervalMs: 5,
    description: `${count} ${label} sessions idle`,
  });
}

async function heapReport(host: HostProcess): Promise<HeapReport> {
  const count = () =>
    host
      .stdout()
      .split("\n")
      .filter((line) => line.includes('"heapReport"'));
  const seen = count().length;
  host.signal("SIGWINCH");
  await waitFor(() => count().length > seen, { timeoutMs: 60_000, description: "heap report" });
  return JSON.parse(count().at(-1) ?? "{}") as HeapReport;
}

/** Waits until the host holds no actor (after `passivateAfterMs` and settling). */
async function waitForPassivation(
  host: HostProcess,
  passivateAfterMs: number,
): Promise<HeapReport> {
  await new Promise((resolve) => setTimeout(resolve, passivateAfterMs + 1000));
  let report = await heapReport(host);
  const deadline = Date.now() + 60_000;
  while (report.activeActors > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    report = await heapReport(host);
  }
  // The host's loops settle; a last report after the last passivation.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  return heapReport(host);
}

async function scanKeys(redis: Redis): Promise<string[]> {
  const keys: string[] = [];
  let cursor = "0";
  do {
    const [next, batch] = await redis.scan(cursor, "COUNT", 1000);
    cursor = next;
    keys.push(...batch);
  } while (cursor !== "0");
  return keys;
}

async function usedMemory(redis: Redis): Promise<number> {
  const info = await redis.info("memory");
  return Number(/used_memory:(\d+)/.exec(info)?.[1] ?? Number.NaN);
}

async function streamBytes(cluster: Cluster): Promise<number> {
  let total = 0;
  for await (const stream of cluster.jsm.streams.list()) total += stream.state.bytes;
  return total;
}

/** Key pattern: session ids, run ids and numbers replaced by `<id>`. */
export function keyPattern(key: string): string {
  return key
    .replace(/(warm|measure)-\d+/g, "<session>")
    .replace(/\b[0-9a-f]{8}-[0-9a-f-]{27}\b/g, "<uuid>")
    .replace(/\d+/g, "<n>");
}

async function describeKeys(redis: Redis, keys: readonly string[]): Promise<KeyPatternCost[]> {
  const byPattern = new Map<
    string,
    { type: string; count: number; bytes: number; withTtl: number }
  >();
  for (let start = 0; start < keys.length; start += 500) {
    const batch = keys.slice(start, start + 500);
    const pipeline = redis.pipeline();
    for (const key of batch) pipeline.type(key).call("MEMORY", "USAGE", key).pttl(key);
    const replies = (await pipeline.exec()) ?? [];
    batch.forEach((key, index) => {
      const type = String(replies[index * 3]?.[1]);
      const bytes = Number(replies[index * 3 + 1]?.[1] ?? 0);
      const ttl = Number(replies[index * 3 + 2]?.[1] ?? -1);
      // Expired between SCAN and TYPE (a kept history past its retention).
      if (type === "none") return;
      const pattern = keyPattern(key);
      const entry = byPattern.get(pattern) ?? { type, count: 0, bytes: 0, withTtl: 0 };
      entry.count += 1;
      entry.bytes += bytes;
      if (ttl >= 0) entry.withTtl += 1;
      byPattern.set(pattern, entry);
    });
  }
  return [...byPattern.entries()]
    .map(([pattern, entry]) => ({ pattern, ...entry }))
    .sort((a, b) => b.bytes - a.bytes);
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

if (import.meta.url === `file://${process.argv[1]}`) {
  const sessions = Number(process.argv[2] ?? 2000);
  const passivateAfterMs = Number(process.argv[3] ?? 5000);
  const historyRetentionMs = process.argv[4] === undefined ? undefined : Number(process.argv[4]);
  const result = await measureSessionCost(sessions, passivateAfterMs, historyRetentionMs);
  const { heap, redis } = result;
  const row = (name: string, report: HeapReport) =>
    `${name.padEnd(18)} heap ${mb(report.heapUsedBytes)}  rss ${mb(report.rssBytes)}  external ${mb(report.externalBytes)}  actors ${report.activeActors}  (before gc: heap ${mb(report.heapUsedBeforeCollectBytes)} rss ${mb(report.rssBeforeCollectBytes)})${report.snapshot === undefined ? "" : ` ${report.snapshot}`}`;
  console.log(`${result.sessions} sessions, ${result.turnsPerSecond.toFixed(0)} turns/s`);
  console.log(row("before", heap.before));
  console.log(row("after", heap.after));
  console.log(row("after passivation", heap.passivated));
  console.log(`heap per active actor ${kb(result.heapPerActiveActorBytes)}`);
  console.log(`heap left per session after passivation ${kb(result.heapLeftPerSessionBytes)}`);
  console.log(
    `redis used_memory ${mb(redis.usedMemoryBeforeBytes)} → ${mb(redis.usedMemoryAfterBytes)}: ${kb(redis.bytesPerSession)} and ${redis.keysPerSession.toFixed(2)} keys per session`,
  );
  const printPatterns = (patterns: readonly KeyPatternCost[]) => {
    for (const pattern of patterns)
      console.log(
        `  ${pattern.pattern.padEnd(60)} ${pattern.type.padEnd(7)} ${String(pattern.count).padStart(6)} keys  ${(pattern.bytes / result.sessions).toFixed(0).padStart(6)} B/session  ttl ${pattern.withTtl}/${pattern.count}`,
      );
  };
  printPatterns(redis.patterns);
  if (redis.pastHistoryRetention !== undefined) {
    console.log(
      `past historyRetentionMs: ${kb(redis.pastHistoryRetention.bytesPerSession)} and ${redis.pastHistoryRetention.keysPerSession.toFixed(2)} keys per session`,
    );
    printPatterns(redis.pastHistoryRetention.patterns);
  }
  console.log(`stream bytes per turn ${result.streamBytesPerTurn.toFixed(0)}`);
  console.log(`load average ${result.loadAverage.map((value) => value.toFixed(2)).join(" ")}`);
  console.log(JSON.stringify(result));
}
