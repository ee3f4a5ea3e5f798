/**
 * Capacity simulation (issue #17, "Capacity plan for one million sessions"):
 * creates ≥ 100 000 sessions on a local deployment — real `nats-server` and
 * `redis-server` on loopback, one bench agent host child process
 * (`test/src/fixtures/bench-agent-host.ts`: the scripted demo model, 64
 * shards) — each with one `hello` user message published to its public inbox,
 * `--in-flight` sessions at a time, and measures what a session costs:
 *
 * - host memory per active actor: heap and RSS (after two full GCs) with the
 *   actors of the last `passivateAfterMs` in memory, minus the baseline;
 * - Redis bytes per session right after the run (recent sessions still hold
 *   their kept generations) and once every actor is idle (past passivation and
 *   `historyRetentionMs`): `INFO memory` `used_memory` delta ÷ sessions, keys
 *   per session, and `MEMORY USAGE` of sampled keys by pattern;
 * - JetStream bytes and messages per stream: per message and per session.
 *
 * Run: `npm run bench:capacity` (from the repository root), or with options:
 * `npm run bench:capacity -- --sessions=100000 --in-flight=200
 * --passivate-after-ms=20000`. Prints a Markdown report on stdout (progress on
 * stderr) and a last line of JSON; `docs/operating/capacity.md` quotes a run. Not part of
 * the test suite.
 */
import { loadavg } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import type { Redis } from "ioredis";
import { startBenchLifecycle } from "./bench-lifecycle.js";
import { collectMachineFacts, machineFactLines } from "./machine-facts.js";
import { count } from "./format-numbers.js";
import { pumpSessions } from "./capacity/session-pump.js";
import {
  redisSize,
  sampleKeyPatterns,
  scanKeys,
  type KeyPatternSample,
  type RedisSize,
} from "./capacity/redis-key-sample.js";
import type { HostMemoryReport } from "./turns/host-memory.js";
import { startTurnDeployment, type TurnDeployment } from "./turns/turn-deployment.js";
import { waitFor } from "../support/wait-for.js";

const { values } = parseArgs({
  options: {
    sessions: { type: "string", default: "100000" },
    "in-flight": { type: "string", default: "200" },
    "passivate-after-ms": { type: "string", default: "20000" },
    warmup: { type: "string", default: "1000" },
    "sample-keys": { type: "string", default: "2000" },
    "time-limit-min": { type: "string", default: "60" },
    // Stop creating sessions after this many minutes (a loaded machine); 0: no budget.
    "create-budget-min": { type: "string", default: "0" },
  },
});
const sessions = Number(values.sessions);
const inFlight = Number(values["in-flight"]);
const passivateAfterMs = Number(values["passivate-after-ms"]);
const warmupSessions = Number(values.warmup);
const samplePerPattern = Number(values["sample-keys"]);
/** Kept generations expire with the actor's passivation, as with the defaults (60 s / 60 s). */
const historyRetentionMs = passivateAfterMs;

/** Messages and bytes of one stream (`jsm.streams.info().state`). */
interface StreamUsage {
  readonly messages: number;
  readonly bytes: number;
}

/** Host, Redis and streams at one moment. */
interface Snapshot {
  readonly host: HostMemoryReport;
  readonly redis: RedisSize;
  readonly streams: Readonly<Record<string, StreamUsage>>;
}

const lifecycle = startBenchLifecycle("capacity", Number(values["time-limit-min"]) * 60_000);
const { progress } = lifecycle;

await lifecycle.runToEnd(async () => {
  progress(
    `capacity simulation: ${count(sessions)} sessions, ${inFlight} in flight, ` +
      `passivateAfterMs ${passivateAfterMs}; load average ${loadavg()
        .map((v) => v.toFixed(2))
        .join(" ")}`,
  );
  const deployment = await startTurnDeployment({
    name: "capacity",
    shardCount: 64,
    hostSettings: {
      passivateAfterMs,
      historyRetentionMs,
      // Passivation by idle time only, so the active actors are those of the last passivateAfterMs.
      maxActiveActors: 1_000_000,
    },
    turnTimeoutMs: 120_000,
    resources: lifecycle.resources,
  });
  const { cluster } = deployment;
  const facts = await collectMachineFacts(cluster.nats, cluster.redis);
  const body = new TextEncoder().encode('{"type":"user.message","text":"hello"}');

  progress(`warm-up: ${warmupSessions} sessions`);
  await pumpSessions(cluster.nats, cluster.js, {
    label: "warm",
    sessions: warmupSessions,
    inFlight,
    body,
    stallTimeoutMs: 60_000,
  });
  await waitForIdleHost(deployment, historyRetentionMs);
  const before = await snapshot(deployment);
  progress(
    `baseline: heap ${mb(before.host.heapUsedBytes)}, redis ${mb(before.redis.usedMemoryBytes)}`,
  );

  const pumped = await pumpSessions(cluster.nats, cluster.js, {
    label: "measure",
    sessions,
    inFlight,
    body,
    stallTimeoutMs: 120_000,
    slotTimeoutMs: 60_000,
    ...(Number(values["create-budget-min"]) > 0
      ? { publishUntilMs: performance.now() + Number(values["create-budget-min"]) * 60_000 }
      : {}),
    progressEvery: 10_000,
    onProgress: (idle, ms) =>
      progress(
        `${count(idle)} sessions idle, ${count((idle * 1000) / ms)} sessions/s, load ${loadavg()[0]?.toFixed(2)}`,
      ),
  });
  const { elapsedMs } = pumped;
  /** Sessions created: all of them unless the creation budget ran out. */
  const created = pumped.published;
  if (pumped.idle < sessions) {
    progress(
      `only ${count(pumped.idle)} of ${count(sessions)} sessions became idle; measuring anyway`,
    );
  }
  const after = await snapshot(deployment);
  progress(
    `right after: ${count(after.host.activeActors)} actors active, heap ${mb(after.host.heapUsedBytes)}`,
  );
  const measured = (key: string) => key.includes("measure-");
  const keysAfter = await scanKeys(cluster.redis, measured);
  const patternsAfter = await sampleKeyPatterns(cluster.redis, keysAfter, samplePerPattern);

  progress("waiting for every actor to passivate and the kept generations to expire");
  await waitForIdleHost(deployment, historyRetentionMs);
  const idle = await snapshot(deployment);
  const keysIdle = await scanKeys(cluster.redis, measured);
  const patternsIdle = await sampleKeyPatterns(cluster.redis, keysIdle, samplePerPattern);

  const result = {
    date: new Date().toISOString(),
    command: `npm run bench:capacity -- --sessions=${sessions} --in-flight=${inFlight} --passivate-after-ms=${passivateAfterMs}`,
    sessions: created,
    sessionsIdle: pumped.idle,
    inFlight,
    passivateAfterMs,
    historyRetentionMs,
    elapsedMs,
    sessionsPerSecond: (pumped.idle * 1000) / elapsedMs,
    loadAverageAtEnd: loadavg(),
    before,
    after,
    idle,
    host: {
      heapPerActiveActorBytes:
        (after.host.heapUsedBytes - before.host.heapUsedBytes) /
        Math.max(1, after.host.activeActors),
      rssPerActiveActorBytes:
        (after.host.rssBytes - before.host.rssBytes) / Math.max(1, after.host.activeActors),
      heapLeftPerSessionBytes: (idle.host.heapUsedBytes - before.host.heapUsedBytes) / created,
    },
    redis: {
      bytesPerSessionRightAfter:
        (after.redis.usedMemoryBytes - before.redis.usedMemoryBytes) / created,
      bytesPerIdleSession: (idle.redis.usedMemoryBytes - before.redis.usedMemoryBytes) / created,
      keysPerSessionRightAfter: keysAfter.length / created,
      keysPerIdleSession: keysIdle.length / created,
      patternsRightAfter: patternsAfter,
      patternsIdle,
    },
    streams: Object.fromEntries(
      Object.keys(idle.streams).map((name) => {
        const messages =
          (idle.streams[name]?.messages ?? 0) - (before.streams[name]?.messages ?? 0);
        const bytes = (idle.streams[name]?.bytes ?? 0) - (before.streams[name]?.bytes ?? 0);
        return [
          name,
          {
            messagesPerSession: messages / created,
            bytesPerSession: bytes / created,
            bytesPerMessage: messages === 0 ? 0 : bytes / messages,
          },
        ];
      }),
    ),
  };
  process.stdout.write(`${report(result, machineFactLines(facts, loadavg()[0] ?? 0))}\n`);
  process.stdout.write(`${JSON.stringify(result)}\n`);
  await lifecycle.resources.releaseAll();
  return 0;
});

/** Waits until the host holds no actor and Redis's key count stopped falling (expired generations). */
async function waitForIdleHost(deployment: TurnDeployment, retentionMs: number): Promise<void> {
  await waitFor(async () => (await deployment.readMemory()).activeActors === 0, {
    timeoutMs: passivateAfterMs + 120_000,
    intervalMs: 2_000,
    description: "the host passivated every actor",
  }).catch((error: unknown) => progress(`${String(error)}; measuring anyway`));
  await sleep(retentionMs + 1_000);
  await waitForStableKeyCount(deployment.cluster.redis);
}

async function waitForStableKeyCount(redis: Redis): Promise<void> {
  // Redis deletes expired keys in the background (active expiry samples 20 keys per cycle).
  let keys = await redis.dbsize();
  for (let polls = 0; polls < 120; polls += 1) {
    await sleep(1_000);
    const now = await redis.dbsize();
    if (now === keys) return;
    keys = now;
  }
}

async function snapshot(deployment: TurnDeployment): Promise<Snapshot> {
  const streams: Record<string, StreamUsage> = {};
  for await (const stream of deployment.cluster.jsm.streams.list()) {
    streams[stream.config.name] = { messages: stream.state.messages, bytes: stream.state.bytes };
  }
  return {
    host: await deployment.readMemory(),
    redis: await redisSize(deployment.cluster.redis),
    streams,
  };
}

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function report(
  result: {
    date: string;
    command: string;
    sessions: number;
    elapsedMs: number;
    sessionsPerSecond: number;
    sessionsIdle: number;
    before: Snapshot;
    after: Snapshot;
    idle: Snapshot;
    host: {
      heapPerActiveActorBytes: number;
      rssPerActiveActorBytes: number;
      heapLeftPerSessionBytes: number;
    };
    redis: {
      bytesPerSessionRightAfter: number;
      bytesPerIdleSession: number;
      keysPerSessionRightAfter: number;
      keysPerIdleSession: number;
      patternsRightAfter: readonly KeyPatternSample[];
      patternsIdle: readonly KeyPatternSample[];
    };
    streams: Record<
      string,
      { messagesPerSession: number; bytesPerSession: number; bytesPerMessage: number }
    >;
  },
  machine: string,
): string {
  const row = (cells: readonly (string | number)[]) => `| ${cells.join(" | ")} |`;
  const patterns = (samples: readonly KeyPatternSample[]) => [
    row([
      "key pattern",
      "type",
      "keys",
      "keys per session",
      "mean MEMORY USAGE (B)",
      "with TTL (sampled)",
    ]),
    row(["---", "---", "---:", "---:", "---:", "---:"]),
    ...samples.map((sample) =>
      row([
        `\`${sample.pattern}\``,
        sample.type,
        count(sample.count),
        (sample.count / result.sessions).toFixed(2),
        count(sample.meanBytes),
        `${sample.withTtl}/${sample.sampled}`,
      ]),
    ),
  ];
  const { before, after, idle } = result;
  return [
    `## Capacity simulation, ${result.date}`,
    "",
    `\`${result.command}\``,
    "",
    machine,
    `- ${count(result.sessions)} sessions created (one message each), ${count(result.sessionsIdle)} reached session.idle, in ${(result.elapsedMs / 1000).toFixed(0)} s (${count(result.sessionsPerSecond)} sessions/s)`,
    "",
    row(["", "before", "right after", "all idle", "per unit"]),
    row(["---", "---:", "---:", "---:", "---:"]),
    row([
      "host heap used (MB, after full GC)",
      mb(before.host.heapUsedBytes),
      mb(after.host.heapUsedBytes),
      mb(idle.host.heapUsedBytes),
      `${count(result.host.heapPerActiveActorBytes)} B per active actor`,
    ]),
    row([
      "host RSS (MB)",
      mb(before.host.rssBytes),
      mb(after.host.rssBytes),
      mb(idle.host.rssBytes),
      `${count(result.host.rssPerActiveActorBytes)} B per active actor`,
    ]),
    row([
      "host active actors",
      count(before.host.activeActors),
      count(after.host.activeActors),
      count(idle.host.activeActors),
      "—",
    ]),
    row([
      "Redis used_memory",
      mb(before.redis.usedMemoryBytes),
      mb(after.redis.usedMemoryBytes),
      mb(idle.redis.usedMemoryBytes),
      `${count(result.redis.bytesPerSessionRightAfter)} B per session right after, ${count(result.redis.bytesPerIdleSession)} B idle`,
    ]),
    row([
      "Redis keys",
      count(before.redis.keys),
      count(after.redis.keys),
      count(idle.redis.keys),
      `${result.redis.keysPerSessionRightAfter.toFixed(2)} right after, ${result.redis.keysPerIdleSession.toFixed(2)} idle`,
    ]),
    "",
    "Redis keys of the measured sessions right after the run:",
    "",
    ...patterns(result.redis.patternsRightAfter),
    "",
    "Once idle (passivated, kept generations expired):",
    "",
    ...patterns(result.redis.patternsIdle),
    "",
    row(["stream", "messages per session", "bytes per session", "bytes per message"]),
    row(["---", "---:", "---:", "---:"]),
    ...Object.entries(result.streams).map(([name, usage]) =>
      row([
        name,
        usage.messagesPerSession.toFixed(2),
        count(usage.bytesPerSession),
        count(usage.bytesPerMessage),
      ]),
    ),
  ].join("\n");
}
