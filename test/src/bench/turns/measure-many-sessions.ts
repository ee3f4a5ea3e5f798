import { setTimeout as sleep } from "node:timers/promises";
import type { Redis } from "ioredis";
import { createConcurrencyLimit } from "../concurrency-limit.js";
import { waitFor } from "../../support/wait-for.js";
import { cpuPerTurn, type CpuPerTurn } from "./cpu-per-turn.js";
import type { HostMemoryReport } from "./host-memory.js";
import { settledStreamCounts, type StreamCounts } from "./stream-state.js";
import { cpuBetween } from "./thread-cpu.js";
import { epochNowMs } from "./turn-driver.js";
import type { TurnDeployment } from "./turn-deployment.js";

/** The streams whose growth per turn is reported. */
export const reportedStreams = ["inbox", "events", "deltas", "transcript"] as const;
/** One of {@link reportedStreams}. */
export type ReportedStream = (typeof reportedStreams)[number];

/** Redis's size: `INFO memory` `used_memory` and `DBSIZE`. */
export interface RedisSize {
  readonly usedMemoryBytes: number;
  readonly keys: number;
}

/** Host memory, Redis size and stream counts at one moment. */
export interface DeploymentSize {
  readonly host: HostMemoryReport;
  readonly redis: RedisSize;
  readonly streams: Readonly<Record<ReportedStream, StreamCounts>>;
}

/** Options of {@link measureManySessions}. */
export interface ManySessionsOptions {
  readonly prefix: string;
  readonly text: string;
  /** New sessions, one turn each (e.g. 10 000). */
  readonly sessions: number;
  /** Turns in flight at once (e.g. 200). */
  readonly inFlight: number;
  /** Sessions run before the baseline and left to passivate (warms the host's code paths). */
  readonly warmupSessions: number;
  /** Longest wait for the host to passivate every actor, in ms. */
  readonly passivationTimeoutMs: number;
  /**
   * The host's `historyRetentionMs`: the idle size is measured once kept
   * generations expired too (and Redis reclaimed them), as an idle session
   * stays. Default 0 (not waited for).
   */
  readonly historyRetentionMs?: number;
}

/** What {@link measureManySessions} measured. */
export interface ManySessionsResult {
  readonly sessions: number;
  readonly inFlight: number;
  readonly turnsPerSecond: number;
  readonly cpu: CpuPerTurn;
  /** Before the sessions (after the warm-up passivated). */
  readonly before: DeploymentSize;
  /** Right after the last turn completed. */
  readonly after: DeploymentSize;
  /** Once the host reported no active actor. */
  readonly passivated: DeploymentSize;
  /** Time from the last turn to no active actor, in ms. */
  readonly passivationMs: number;
}

/**
 * Many new sessions (issue #12, "f", Must show 2): `sessions` sessions get one
 * turn each, `inFlight` at a time, on a host started with a short
 * `passivateAfterMs`. Host memory (after a full GC), Redis `used_memory` and
 * `DBSIZE`, and the streams' counts are read before, right after, and once the
 * host passivated every actor.
 *
 * @param deployment - a started deployment with a short `passivateAfterMs`.
 * @param options - sessions, concurrency, warm-up, timeout.
 * @returns rate, CPU and the three sizes.
 * @throws Error when a turn fails or the host does not passivate in time.
 */
export async function measureManySessions(
  deployment: TurnDeployment,
  options: ManySessionsOptions,
): Promise<ManySessionsResult> {
  const { driver } = deployment;
  const runSessions = async (prefix: string, count: number) => {
    const limit = createConcurrencyLimit(options.inFlight);
    await Promise.all(
      Array.from({ length: count }, (_, index) =>
        limit(() => driver.turn(`${prefix}-${index}`, options.text)),
      ),
    );
  };
  const passivateAll = async () => {
    await waitFor(async () => (await deployment.readMemory()).activeActors === 0, {
      timeoutMs: options.passivationTimeoutMs,
      intervalMs: 500,
      description: "the host passivated every actor",
    });
  };
  await runSessions(`${options.prefix}-warm`, options.warmupSessions);
  await passivateAll();
  const before = await deploymentSize(deployment);
  const cpuBefore = await deployment.readCpu();
  const startedAtMs = epochNowMs();
  await runSessions(options.prefix, options.sessions);
  const endedAtMs = epochNowMs();
  const cpuAfter = await deployment.readCpu();
  const after = await deploymentSize(deployment);
  await passivateAll();
  const passivationMs = epochNowMs() - endedAtMs;
  const historyGoneAtMs = endedAtMs + (options.historyRetentionMs ?? 0) + 500;
  if (epochNowMs() < historyGoneAtMs) await sleep(historyGoneAtMs - epochNowMs());
  // Redis deletes expired keys in the background: wait until DBSIZE stops falling.
  for (let keys = await cluster(deployment).redis.dbsize(), polls = 0; polls < 40; polls += 1) {
    await sleep(500);
    const now = await cluster(deployment).redis.dbsize();
    if (now === keys) break;
    keys = now;
  }
  const passivated = await deploymentSize(deployment);
  return {
    sessions: options.sessions,
    inFlight: options.inFlight,
    turnsPerSecond: (options.sessions * 1000) / (endedAtMs - startedAtMs),
    cpu: cpuPerTurn(cpuBetween(cpuBefore, cpuAfter), options.sessions),
    before,
    after,
    passivated,
    passivationMs,
  };
}

function cluster(deployment: TurnDeployment) {
  return deployment.cluster;
}

async function deploymentSize(deployment: TurnDeployment): Promise<DeploymentSize> {
  const { cluster } = deployment;
  const streams = {} as Record<ReportedStream, StreamCounts>;
  for (const stream of reportedStreams)
    streams[stream] = await settledStreamCounts(cluster.jsm, cluster.streams[stream]);
  return {
    host: await deployment.readMemory(),
    redis: await redisSize(cluster.redis),
    streams,
  };
}

async function redisSize(redis: Redis): Promise<RedisSize> {
  const info = await redis.info("memory");
  return {
    usedMemoryBytes: Number(/used_memory:(\d+)/.exec(info)?.[1] ?? Number.NaN),
    keys: await redis.dbsize(),
  };
}
