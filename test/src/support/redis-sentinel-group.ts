import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findFreePort } from "@troupe/dev";
import { Redis } from "ioredis";
import { testDataDirPrefix } from "../harness/test-run-marker.js";
import { waitFor } from "./wait-for.js";

/** The master's name the sentinels monitor. */
export const SENTINEL_MASTER_NAME = "troupe-master";

/** A Redis master, its replica and three sentinels on loopback (issue #17). */
export interface SentinelGroup {
  /** `host:port` of each sentinel, comma-separated (as `TROUPE_TEST_REDIS_SENTINELS`). */
  readonly sentinelAddresses: string;
  /** The ports of the two data servers, the first the initial master. */
  readonly dataPorts: readonly [number, number];
  /** The port of the current master, as the sentinels answer. */
  masterPort(): Promise<number>;
  /** SIGKILLs the data server on `port`. */
  kill(port: number): void;
  /** SIGSTOP / SIGCONT of the data server on `port` (a replica that falls behind). */
  signal(port: number, signal: NodeJS.Signals): void;
  stop(): Promise<void>;
}

/**
 * Starts a master, one replica (`replicaof`) and three sentinels (`redis-sentinel`,
 * or `redis-server --sentinel` when the Debian package `redis-sentinel` is not
 * installed) with a quorum of 2, `down-after-milliseconds` 1 000 and
 * `failover-timeout` 5 000; no persistence. Folders are named with the test
 * run's marker and removed by `stop`.
 *
 * @param binary - `redis-server`'s path (default: on `PATH`).
 */
export async function startSentinelGroup(binary = "redis-server"): Promise<SentinelGroup> {
  const dir = await mkdtemp(join(tmpdir(), testDataDirPrefix("redis")));
  const sentinelBinary = existsSync("/usr/bin/redis-sentinel")
    ? "/usr/bin/redis-sentinel"
    : undefined;
  const processes = new Map<number, ChildProcess>();
  const start = async (port: number, config: string, sentinel: boolean) => {
    const file = join(dir, `${sentinel ? "sentinel" : "redis"}-${port}.conf`);
    await writeFile(file, config);
    const [command, args] =
      sentinel && sentinelBinary !== undefined
        ? [sentinelBinary, [file]]
        : [binary, sentinel ? [file, "--sentinel"] : [file]];
    const child = spawn(command, args, {
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout?.resume();
    child.stderr?.resume();
    processes.set(port, child);
    await waitFor(
      async () => {
        const client = new Redis({
          port,
          host: "127.0.0.1",
          lazyConnect: true,
          retryStrategy: () => null,
        });
        client.on("error", () => undefined);
        try {
          await client.connect();
          return (await client.ping()) === "PONG";
        } catch {
          return false;
        } finally {
          client.disconnect();
        }
      },
      { timeoutMs: 10_000, description: `redis on ${port} answers` },
    );
  };
  const data = (port: number, replicaOf?: number) =>
    [
      `port ${port}`,
      "bind 127.0.0.1",
      `dir ${dir}`,
      `dbfilename dump-${port}.rdb`,
      'save ""',
      "appendonly no",
      ...(replicaOf === undefined ? [] : [`replicaof 127.0.0.1 ${replicaOf}`]),
    ].join("\n");
  const [masterPort, replicaPort] = [
    await findFreePort("127.0.0.1"),
    await findFreePort("127.0.0.1"),
  ];
  await start(masterPort, data(masterPort), false);
  await start(replicaPort, data(replicaPort, masterPort), false);
  const sentinelPorts: number[] = [];
  for (let index = 0; index < 3; index += 1) {
    const port = await findFreePort("127.0.0.1");
    sentinelPorts.push(port);
    await start(
      port,
      [
        `port ${port}`,
        "bind 127.0.0.1",
        `dir ${dir}`,
        `sentinel monitor ${SENTINEL_MASTER_NAME} 127.0.0.1 ${masterPort} 2`,
        `sentinel down-after-milliseconds ${SENTINEL_MASTER_NAME} 1000`,
        `sentinel failover-timeout ${SENTINEL_MASTER_NAME} 5000`,
        `sentinel parallel-syncs ${SENTINEL_MASTER_NAME} 1`,
      ].join("\n"),
      true,
    );
  }
  const sentinel = new Redis({ port: sentinelPorts[0]!, host: "127.0.0.1" });
  sentinel.on("error", () => undefined);
  // The replica is in sync before the group is handed out.
  const master = new Redis({ port: masterPort, host: "127.0.0.1" });
  await waitFor(async () => /connected_slaves:1/.test(await master.info("replication")), {
    timeoutMs: 15_000,
    description: "the replica connected",
  });
  master.disconnect();
  return {
    sentinelAddresses: sentinelPorts.map((port) => `127.0.0.1:${port}`).join(","),
    dataPorts: [masterPort, replicaPort],
    async masterPort() {
      const reply = (await sentinel.call(
        "SENTINEL",
        "get-master-addr-by-name",
        SENTINEL_MASTER_NAME,
      )) as [string, string];
      return Number(reply[1]);
    },
    kill(port) {
      processes.get(port)?.kill("SIGKILL");
    },
    signal(port, signal) {
      processes.get(port)?.kill(signal);
    },
    async stop() {
      sentinel.disconnect();
      await Promise.all(
        [...processes.values()].map(async (child) => {
          if (child.exitCode !== null || child.signalCode !== null) return;
          child.kill("SIGCONT");
          child.kill("SIGKILL");
          await once(child, "exit").catch(() => undefined);
        }),
      );
      await rm(dir, { recursive: true, force: true });
    },
  };
}
