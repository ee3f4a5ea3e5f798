import type { CpuTimesMs } from "../process-cpu.js";
import type { BenchResources } from "../bench-resources.js";
import { startCluster, type Cluster } from "../../support/cluster.js";
import type { HostProcess } from "../../support/host-process.js";
import { hostMemorySubject, readHostMemory, type HostMemoryReport } from "./host-memory.js";
import { threadCpuReader } from "./thread-cpu.js";
import { TurnDriver } from "./turn-driver.js";

/** The agent host's entry, relative to the repository root. */
export const benchAgentHostEntry = "test/src/fixtures/bench-agent-host.ts";

/** Fresh servers, one bench agent host child process and a turn driver. */
export interface TurnDeployment {
  readonly cluster: Cluster;
  readonly host: HostProcess;
  readonly driver: TurnDriver;
  /** CPU ms so far of `host`, `nats-server`, `redis-server` and `node` (this process). */
  readonly readCpu: () => Promise<CpuTimesMs>;
  /** The host's memory after a full GC, and its active actors. */
  readonly readMemory: () => Promise<HostMemoryReport>;
}

/** Options of {@link startTurnDeployment}. */
export interface TurnDeploymentOptions {
  /** Names the host's memory subject. */
  readonly name: string;
  readonly shardCount: number;
  /** Host settings besides `shardCount`. */
  readonly hostSettings?: Record<string, unknown>;
  /** Extra environment of the host process (e.g. the compaction benchmark's budget). */
  readonly hostEnv?: Record<string, string>;
  /** Longest wait for one turn, in ms. */
  readonly turnTimeoutMs: number;
  readonly resources: BenchResources;
}

/**
 * Starts servers (`startCluster`), one `bench-agent-host.ts` child process (with
 * `--expose-gc` and a memory subject) that owns every shard, and a
 * {@link TurnDriver}. Everything is tracked by `resources`; release the
 * deployment's `cluster` to stop it all.
 *
 * @param options - name, shards, host settings, turn timeout, resources.
 * @returns the deployment.
 */
export async function startTurnDeployment(options: TurnDeploymentOptions): Promise<TurnDeployment> {
  const { resources } = options;
  const cluster = resources.track(await startCluster({ shardCount: options.shardCount }), (c) =>
    c.stop(),
  );
  const subject = hostMemorySubject(options.name);
  const host = await cluster.startHost(options.hostSettings ?? {}, {
    entry: benchAgentHostEntry,
    env: {
      NODE_OPTIONS: [process.env.NODE_OPTIONS, "--expose-gc"].filter(Boolean).join(" "),
      TROUPE_BENCH_MEMORY_SUBJECT: subject,
      ...options.hostEnv,
    },
  });
  await cluster.waitForOwners([host.hostId], 30_000);
  const driver = resources.track(
    await TurnDriver.start(cluster.nats, cluster.servers.natsUrl, options.turnTimeoutMs),
    (d) => d.close(),
  );
  const local = cluster.servers.local;
  const readCpu = threadCpuReader({
    host: host.pid,
    ...(local === undefined
      ? {}
      : { "nats-server": local.nats.pid, "redis-server": local.redis.pid }),
  });
  return {
    cluster,
    host,
    driver,
    readCpu,
    readMemory: () => readHostMemory(cluster.nats, subject),
  };
}

/**
 * Stops a deployment: the driver, then the host and servers.
 *
 * @param deployment - from {@link startTurnDeployment}.
 * @param resources - the resources it was tracked by.
 */
export async function stopTurnDeployment(
  deployment: TurnDeployment,
  resources: BenchResources,
): Promise<void> {
  await resources.release(deployment.driver);
  await resources.release(deployment.cluster);
}
