import { execFile, spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { findFreePort } from "@troupe/dev";
import { Cluster } from "ioredis";
import { testDataDirPrefix } from "../harness/test-run-marker.js";
import { waitFor } from "./wait-for.js";

/** A Redis Cluster of three masters (no replicas) on loopback (issue #17). */
export interface RedisClusterGroup {
  /** `host:port` of each master, comma-separated (as `TROUPE_TEST_REDIS_CLUSTER`). */
  readonly nodes: string;
  readonly ports: readonly number[];
  /** An ioredis `Cluster` client of it. */
  connect(): Cluster;
  stop(): Promise<void>;
}

/**
 * Starts three `redis-server --cluster-enabled yes` processes and joins them
 * with `redis-cli --cluster create` (16 384 slots split in three); no
 * persistence. Resolves once `cluster_state:ok`. Folders are named with the
 * test run's marker and removed by `stop`.
 */
export async function startRedisClusterGroup(): Promise<RedisClusterGroup> {
  const dir = await mkdtemp(join(tmpdir(), testDataDirPrefix("redis")));
  const processes: ChildProcess[] = [];
  const ports: number[] = [];
  for (let index = 0; index < 3; index += 1) {
    const port = await findFreePort("127.0.0.1");
    ports.push(port);
    const file = join(dir, `redis-${port}.conf`);
    await writeFile(
      file,
      [
        `port ${port}`,
        "bind 127.0.0.1",
        `dir ${dir}`,
        "cluster-enabled yes",
        `cluster-config-file nodes-${port}.conf`,
        "cluster-node-timeout 2000",
        'save ""',
        "appendonly no",
      ].join("\n"),
    );
    const child = spawn("redis-server", [file], { stdio: ["ignore", "pipe", "pipe"] });
    child.stdout?.resume();
    child.stderr?.resume();
    processes.push(child);
  }
  const cli = (args: string[]) => promisify(execFile)("redis-cli", args, { timeout: 30_000 });
  await waitFor(
    async () =>
      (
        await Promise.all(
          ports.map((port) => cli(["-p", String(port), "ping"]).catch(() => undefined)),
        )
      ).every((reply) => reply?.stdout.trim() === "PONG"),
    { timeoutMs: 10_000, description: "three cluster nodes answer" },
  );
  await cli([
    "--cluster",
    "create",
    ...ports.map((port) => `127.0.0.1:${port}`),
    "--cluster-replicas",
    "0",
    "--cluster-yes",
  ]);
  await waitFor(
    async () =>
      (await Promise.all(ports.map((port) => cli(["-p", String(port), "cluster", "info"])))).every(
        (reply) => reply.stdout.includes("cluster_state:ok"),
      ),
    { timeoutMs: 20_000, description: "cluster_state:ok on every node" },
  );
  const nodes = ports.map((port) => `127.0.0.1:${port}`).join(",");
  return {
    nodes,
    ports,
    connect: () => new Cluster(ports.map((port) => ({ host: "127.0.0.1", port }))),
    async stop() {
      await Promise.all(
        processes.map(async (child) => {
          if (child.exitCode !== null || child.signalCode !== null) return;
          child.kill("SIGKILL");
          await once(child, "exit").catch(() => undefined);
        }),
      );
      await rm(dir, { recursive: true, force: true });
    },
  };
}
