import { ActorHost, hostSettingsSchema } from "@troupe/runtime";
import { ensureStreams } from "@troupe/runtime/internal";
import { counterKind } from "../fixtures/counter-machine.js";
import { startCluster, type Cluster } from "../support/cluster.js";
import type { BenchResources } from "./bench-resources.js";
import type { CounterRecordSizes } from "./counter-record-sizes.js";
import { measureDrainRate, type DrainRate } from "./measure-drain-rate.js";
import { processCpuReader } from "./process-cpu.js";
import { publishBacklog } from "./publish-backlog.js";
import { startRawPipeline } from "./raw-pipeline.js";

/** What processes the backlog: the actor host, or the raw floor pipeline. */
export type ThroughputTarget = "host" | "raw";

/** Options of {@link measureThroughput}. */
export interface ThroughputOptions {
  readonly target: ThroughputTarget;
  /** `maxConcurrency` of the host, or the raw floor's in-flight limit. */
  readonly maxConcurrency: number;
  /** Actor ids are `counter/a0` … `counter/a<actors - 1>`. */
  readonly actors: number;
  /** Backlog size (one `counter.increment` each). */
  readonly messages: number;
  readonly shardCount: number;
  /** Longest wait for the backlog to drain, in ms. */
  readonly timeoutMs: number;
  /** Sizes the raw floor writes and publishes. */
  readonly sizes: CounterRecordSizes;
  readonly resources: BenchResources;
}

/** Handed to the `afterDrain` callback of {@link measureThroughput}. */
export interface DrainedDeployment {
  readonly cluster: Cluster;
  /** The actor ids of the backlog. */
  readonly actors: readonly string[];
  /** Stops the host or raw pipeline (idempotent); the cluster stays up. */
  readonly stopTarget: () => Promise<void>;
}

/**
 * One throughput run on fresh servers: creates the host's streams, publishes the
 * backlog while nothing consumes, then starts the target — an in-process
 * `ActorHost` (its own NATS connection and Redis client, default settings but
 * `shardCount` and `maxConcurrency`) or the raw floor — and measures the rate
 * between 10 % and 90 % of the events. `afterDrain` runs with the target still up;
 * everything is stopped before this returns.
 *
 * @param options - target, concurrency and sizes.
 * @param afterDrain - optional further measurements on the drained deployment.
 * @returns the rate and what `afterDrain` returned.
 */
export async function measureThroughput<T = undefined>(
  options: ThroughputOptions,
  afterDrain?: (deployment: DrainedDeployment) => Promise<T>,
): Promise<{ rate: DrainRate; after: T | undefined }> {
  const { resources } = options;
  const cluster = resources.track(await startCluster({ shardCount: options.shardCount }), (c) =>
    c.stop(),
  );
  try {
    await ensureStreams(cluster.jsm, cluster.streams, hostSettingsSchema.parse({}));
    const actors = Array.from({ length: options.actors }, (_, index) => `counter/a${index}`);
    await publishBacklog(cluster.js, { actors, messages: options.messages });
    // Polling starts before the target, so the 10 % mark is never missed.
    const abortPolling = new AbortController();
    const draining = measureDrainRate(cluster.jsm, {
      stream: cluster.streams.events,
      total: options.messages,
      timeoutMs: options.timeoutMs,
      signal: abortPolling.signal,
      readCpu: processCpuReader(serverPids(cluster)),
    });
    let stopTarget: () => Promise<void>;
    try {
      stopTarget = await startTarget(cluster, options);
    } catch (error) {
      abortPolling.abort();
      await draining.catch(() => undefined);
      throw error;
    }
    try {
      const rate = await draining;
      const after = rate.completed
        ? await afterDrain?.({ cluster, actors, stopTarget })
        : undefined;
      return { rate, after };
    } finally {
      await stopTarget();
    }
  } finally {
    await resources.release(cluster);
  }
}

function serverPids(cluster: Cluster): Record<string, number> {
  const local = cluster.servers.local;
  return local === undefined
    ? {}
    : { "nats-server": local.nats.pid, "redis-server": local.redis.pid };
}

async function startTarget(
  cluster: Cluster,
  options: ThroughputOptions,
): Promise<() => Promise<void>> {
  const { natsUrl, redisUrl } = cluster.servers;
  let stopping: Promise<void> | undefined;
  if (options.target === "host") {
    const host = options.resources.track(
      await ActorHost.start({
        nats: natsUrl,
        redis: redisUrl,
        kinds: [counterKind],
        settings: { shardCount: options.shardCount, maxConcurrency: options.maxConcurrency },
      }),
      (h) => h.stop(),
    );
    return () => (stopping ??= options.resources.release(host));
  }
  const pipeline = options.resources.track(
    await startRawPipeline({
      natsUrl,
      redisUrl,
      streams: cluster.streams,
      shardCount: options.shardCount,
      maxConcurrency: options.maxConcurrency,
      ...options.sizes,
    }),
    (p) => p.stop(),
  );
  return async () => {
    stopping ??= options.resources.release(pipeline);
    await stopping;
    if (pipeline.failures() > 0)
      throw new Error(`raw floor: ${pipeline.failures()} messages failed`);
  };
}
