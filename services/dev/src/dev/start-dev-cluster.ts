import { redactUrl } from "@troupe/client";
import { DEFAULT_DEPLOYMENT_PREFIX, DEFAULT_SHARD_COUNT } from "@troupe/protocol";
import { mkdir, rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { LocalServer } from "../local-servers/local-server.js";
import {
  startLocalNatsServer,
  type LocalNatsServer,
} from "../local-servers/start-local-nats-server.js";
import { startLocalRedisServer } from "../local-servers/start-local-redis-server.js";
import { DEMO_AGENT_MODULE } from "@troupe/host/internal";
import { acquireDevLock } from "./dev-lock.js";
import { startDevHostProcess, type DevHostProcess, type HostCommand } from "./dev-host-process.js";
import { removeDevState, writeDevState, type DevState } from "@troupe/host/internal";
import { ensureServerBinaries } from "./ensure-server-binaries.js";
import { isPortFree } from "./is-port-free.js";

/** Options of {@link startDevCluster}. */
export interface DevClusterOptions {
  /**
   * How to start a host process (see {@link HostCommand}); `troupe dev`
   * passes `[process.execPath, <the troupe bin>, "host"]`.
   */
  readonly hostCommand: HostCommand;
  /** Host processes to run; default 2. */
  readonly hosts?: number;
  /** Agent module the hosts serve; default: the built-in demo agent. */
  readonly agentModule?: string | undefined;
  /** Use this NATS server instead of starting one (it needs the inbox subject mapping: infra/nats-server.conf). */
  readonly natsUrl?: string | undefined;
  /** Use this Redis server instead of starting one. */
  readonly redisUrl?: string | undefined;
  /** Deployment prefix; default `"troupe"`. */
  readonly prefix?: string;
  /** Shards of the deployment; default 64. */
  readonly shardCount?: number;
  /** Where started servers keep their data (kept across runs). */
  readonly dataDir: string;
  /** Port of a started nats-server; default 4222 when free, else any free port; 0: any free port. */
  readonly natsPort?: number | undefined;
  /** Port of a started redis-server; default 6379 when free, else any free port; 0: any free port. */
  readonly redisPort?: number | undefined;
  /** Delete `dataDir` first: start from an empty deployment. */
  readonly fresh?: boolean;
  /** Log level of the hosts (pino); default `"warn"`. */
  readonly hostLogLevel?: string;
  /** Further environment of every host process (e.g. `TROUPE_DEMO_MCP_SERVERS`). */
  readonly hostEnv?: Readonly<Record<string, string>>;
  /** One line per step while starting. */
  readonly onProgress?: (line: string) => void;
  /** A line a host wrote (its log), with the host's number from 1. */
  readonly onHostOutput?: (hostNumber: number, line: string) => void;
  /** A host exited while the cluster runs; it is restarted after `restartDelayMs`. */
  readonly onHostExit?: (hostNumber: number, host: DevHostProcess, exit: string) => void;
  /** A host was restarted. */
  readonly onHostRestart?: (hostNumber: number, host: DevHostProcess) => void;
  /** Delay before a host that exited is restarted, in ms; default 1 000 ms. */
  readonly restartDelayMs?: number;
  /** Restarts of one host allowed within a minute; after that it stays down. Default 5. */
  readonly maxRestartsPerMinute?: number;
  /**
   * Starts the HTTP gateway once the hosts are up (`troupe dev`
   * passes one, started in its own process); stopped before the hosts. Its
   * URL goes into the dev state file (`gatewayUrl`). Default: no gateway.
   */
  readonly startGateway?: (deployment: {
    readonly natsUrl: string;
    readonly redisUrl: string;
    readonly prefix: string;
  }) => Promise<DevGateway>;
}

/** A gateway `troupe dev` runs beside its hosts: where it listens and how to stop it. */
export interface DevGateway {
  /** e.g. `http://127.0.0.1:7400`. */
  readonly url: string;
  close(): Promise<void>;
}

/** A running `troupe dev` cluster: see {@link startDevCluster}. */
export interface DevCluster {
  /** What other commands read to find the cluster. */
  readonly state: DevState;
  /** The host processes, by number − 1 (replaced when one restarts). */
  readonly hosts: readonly DevHostProcess[];
  /** Stops the hosts (graceful drain), then the servers it started. Idempotent. */
  stop(): Promise<void>;
}

/**
 * The main job: starts (or reuses, given URLs) `nats-server` and `redis-server`,
 * then `hosts` `troupe host` processes serving the agent module, restarts a host
 * that dies, and records itself in the dev state file so other `troupe`
 * commands find it. Servers prefer the usual ports (4222, 6379) and take free
 * ones when those are busy.
 *
 * @throws DevAlreadyRunningError when another `troupe dev` is running.
 * @throws ServerBinaryMissingError when a server binary is missing and cannot be installed.
 * @throws LocalServerStartError when a server does not start.
 * @throws HostStartError when a host does not start (its own error, else its last output).
 */
export async function startDevCluster(options: DevClusterOptions): Promise<DevCluster> {
  const progress = options.onProgress ?? (() => undefined);
  const releaseLock = await acquireDevLock();
  const prefix = options.prefix ?? DEFAULT_DEPLOYMENT_PREFIX;
  const shardCount = options.shardCount ?? DEFAULT_SHARD_COUNT;
  const hostCount = options.hosts ?? 2;
  // Absolute, so hosts and other commands resolve it from any folder.
  const agentModule =
    options.agentModule !== undefined && options.agentModule.startsWith(".")
      ? resolve(options.agentModule)
      : options.agentModule;
  const started: LocalServer[] = [];
  const hosts: DevHostProcess[] = [];
  let stopping = false;
  let state: DevState | undefined;
  let gateway: DevGateway | undefined;
  const stopAll = async () => {
    stopping = true;
    await gateway?.close().catch(() => undefined);
    await Promise.all(hosts.map((host) => host.stop(15_000)));
    for (const server of started.reverse()) await server.stop();
    await removeDevState(process.pid);
    await releaseLock();
  };
  try {
    if (options.fresh === true) await rm(options.dataDir, { recursive: true, force: true });
    await mkdir(join(options.dataDir, "nats"), { recursive: true });
    await mkdir(join(options.dataDir, "redis"), { recursive: true });
    let natsUrl = options.natsUrl;
    let natsMonitorUrl: string | undefined;
    let redisUrl = options.redisUrl;
    if (natsUrl === undefined || redisUrl === undefined) {
      await ensureServerBinaries(progress);
    }
    if (natsUrl === undefined) {
      const nats: LocalNatsServer = await startLocalNatsServer({
        storeDir: join(options.dataDir, "nats"),
        port: await choosePort(options.natsPort, 4222),
        shardCount,
        detached: true,
        dataDirPrefix: "troupe-dev-nats-",
      });
      started.push(nats);
      natsUrl = nats.url;
      natsMonitorUrl = nats.monitorUrl;
      progress(`nats-server (JetStream) at ${natsUrl}, pid ${nats.pid}`);
    } else {
      progress(`using NATS at ${redactUrl(natsUrl)}`);
    }
    if (redisUrl === undefined) {
      const redis = await startLocalRedisServer({
        storeDir: join(options.dataDir, "redis"),
        port: await choosePort(options.redisPort, 6379),
        appendOnly: true,
        detached: true,
        dataDirPrefix: "troupe-dev-redis-",
      });
      started.push(redis);
      redisUrl = redis.url;
      progress(`redis-server at ${redisUrl}, pid ${redis.pid}`);
    } else {
      progress(`using Redis at ${redactUrl(redisUrl)}`);
    }
    const hostArgs = [
      "--nats",
      natsUrl,
      "--redis",
      redisUrl,
      "--prefix",
      prefix,
      "--shards",
      String(shardCount),
      // A free port each, for /healthz, /readyz and /metrics.
      "--health-port",
      "0",
      ...(agentModule === undefined ? [] : ["--agent", agentModule]),
    ];
    const startHost = (number: number) =>
      startDevHostProcess({
        command: options.hostCommand,
        args: hostArgs,
        env: { ...options.hostEnv, TROUPE_LOG_LEVEL: options.hostLogLevel ?? "warn" },
        onOutput: (line) => options.onHostOutput?.(number, line),
      });
    // A host that keeps dying (a crash in the agent module, say) is restarted at
    // most `maxRestartsPerMinute` times a minute, then left down.
    const exitTimes = new Map<number, number[]>();
    // Restarts host `number` after it died (or a restart failed), within the limit.
    const restart = (number: number) => {
      const now = Date.now();
      const recent = [...(exitTimes.get(number) ?? []), now].filter((at) => now - at < 60_000);
      exitTimes.set(number, recent);
      if (recent.length > (options.maxRestartsPerMinute ?? 5)) {
        options.onHostOutput?.(
          number,
          `exited ${recent.length} times within a minute; not restarting it (its output is above)`,
        );
        return;
      }
      setTimeout(() => {
        if (stopping) return;
        startHost(number).then(
          (restarted) => {
            if (stopping) {
              void restarted.stop(15_000);
              return;
            }
            hosts[number - 1] = restarted;
            if (state !== undefined) {
              state = { ...state, hosts: hosts.map(devStateHost) };
              void writeDevState(state);
            }
            options.onHostRestart?.(number, restarted);
            watch(number, restarted);
          },
          (error: unknown) => {
            if (stopping) return;
            options.onHostOutput?.(number, `restart failed: ${String(error)}`);
            restart(number);
          },
        );
      }, options.restartDelayMs ?? 1_000);
    };
    const watch = (number: number, host: DevHostProcess) => {
      void host.exited.then(({ code, signal }) => {
        if (stopping) return;
        options.onHostExit?.(number, host, signal ?? `exit code ${code}`);
        restart(number);
      });
    };
    for (let number = 1; number <= hostCount; number++) {
      const host = await startHost(number);
      hosts.push(host);
      progress(`host ${number} ready: ${host.hostId}, pid ${host.pid}`);
      watch(number, host);
    }
    if (options.startGateway !== undefined) {
      gateway = await options.startGateway({ natsUrl, redisUrl, prefix });
      progress(`gateway and web console at ${gateway.url}`);
    }
    state = {
      version: 1,
      pid: process.pid,
      natsUrl,
      redisUrl,
      ...(natsMonitorUrl === undefined ? {} : { natsMonitorUrl }),
      prefix,
      shardCount,
      agentModule: agentModule ?? DEMO_AGENT_MODULE,
      agents: [...(hosts[0]?.agents ?? [])],
      models: { ...hosts[0]?.models },
      hosts: hosts.map(devStateHost),
      ...(started.length === 0 ? {} : { dataDir: options.dataDir }),
      ...(gateway === undefined ? {} : { gatewayUrl: gateway.url }),
      startedAtMs: Date.now(),
    };
    await writeDevState(state);
    let stopped: Promise<void> | undefined;
    const running = state;
    return {
      get state() {
        return state ?? running;
      },
      hosts,
      stop: () => (stopped ??= stopAll()),
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

async function choosePort(
  requested: number | undefined,
  usual: number,
): Promise<number | undefined> {
  if (requested === 0) return undefined;
  if (requested !== undefined) return requested;
  return (await isPortFree("127.0.0.1", usual)) ? usual : undefined;
}

/** A host as the dev state records it: id, pid and metrics URL (docs/decisions/0038). */
function devStateHost(host: DevHostProcess): DevState["hosts"][number] {
  return {
    hostId: host.hostId,
    pid: host.pid,
    ...(host.metricsUrl === undefined ? {} : { metricsUrl: host.metricsUrl }),
  };
}
