import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { JetStreamManager } from "@nats-io/jetstream";
import { findFreePort, findServerBinary } from "@troupe/dev";
import { renderNatsServerConfig } from "@troupe/dev/internal";
import { testRunMarker } from "../harness/test-run-marker.js";
import { waitFor } from "./wait-for.js";

/** One `nats-server` of a {@link NatsCluster}. */
export interface NatsClusterNode {
  /** `server_name`: `n1`, `n2`, … */
  readonly name: string;
  /** Client URL, the same across restarts (`nats://127.0.0.1:<port>`). */
  readonly url: string;
  /** HTTP monitor base URL (`/healthz`, `/jsz`). */
  readonly monitorUrl: string;
  /** Whether the process is running (not killed, or restarted since). */
  readonly running: () => boolean;
}

/** Options of {@link startNatsCluster}. */
export interface NatsClusterOptions {
  /** Servers in the cluster; default 3. */
  readonly size?: number;
  /** Inbox shard count of the subject mapping; default 64. */
  readonly shardCount?: number;
  /** How long a server may take to become healthy, in ms; default 20 000 ms. */
  readonly startTimeoutMs?: number;
}

/** A JetStream cluster of local `nats-server` processes on loopback. */
export interface NatsCluster extends AsyncDisposable {
  readonly nodes: readonly NatsClusterNode[];
  /** Every node's client URL, the seeds a client connects with. */
  readonly urls: readonly string[];
  /** Sends SIGKILL to the node and waits until its process has exited. */
  kill(name: string): Promise<void>;
  /** Starts a killed node again with the same ports and store; resolves once it is healthy. */
  restart(name: string): Promise<void>;
  /** The `server_name` of the stream's current leader (waits up to `timeoutMs` for one). */
  streamLeader(jsm: JetStreamManager, stream: string, timeoutMs?: number): Promise<string>;
  /** Stops every node (SIGTERM, SIGKILL after 5 s) and removes the data folder. */
  stop(): Promise<void>;
}

interface NodeState {
  readonly name: string;
  readonly url: string;
  readonly monitorUrl: string;
  readonly configFile: string;
  child: ChildProcess | undefined;
  exited: Promise<unknown> | undefined;
  output: string;
}

/**
 * Starts `size` (default 3) `nats-server` processes on loopback, clustered by
 * routes (cluster `troupe-test`, server names `n1`…`nN`), each with JetStream on
 * its own store folder and the deployment's inbox subject mapping, configured by
 * `renderNatsServerConfig` of `@troupe/cli` (issue #17). Ports are free ports
 * found up front (routes must know each other's ports; a node restarts on the
 * same ones). The data folder is named with the run's `testRunMarker()`, so the
 * run's teardown finds a cluster a suite forgot to stop. Resolves once every node
 * answers `/healthz` (JetStream up and a meta leader elected).
 *
 * @throws Error naming `nats-server` when it is not installed, or the node that
 *   did not become healthy within `startTimeoutMs` (with its output).
 */
export async function startNatsCluster(options: NatsClusterOptions = {}): Promise<NatsCluster> {
  // The ports are free when found, but another test file running at the same
  // time may bind one before the node does: then start again on new ones.
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startNatsClusterOnce(options);
    } catch (error) {
      if (attempt >= PORT_ATTEMPTS || !String(error).includes("address already in use"))
        throw error;
    }
  }
}

/** How often {@link startNatsCluster} tries new ports after "address already in use". */
const PORT_ATTEMPTS = 3;

async function startNatsClusterOnce(options: NatsClusterOptions): Promise<NatsCluster> {
  const binary = findServerBinary("nats-server");
  if (binary === undefined)
    throw new Error("nats-server is not installed (node infra/ensure-servers.mjs)");
  const size = options.size ?? 3;
  const startTimeoutMs = options.startTimeoutMs ?? 20_000;
  const dataDir = await mkdtemp(join(tmpdir(), `${testRunMarker()}nats-cluster-`));
  const host = "127.0.0.1";
  const ports = [];
  for (let index = 0; index < size; index += 1) {
    ports.push({
      client: await findFreePort(host),
      cluster: await findFreePort(host),
      monitor: await findFreePort(host),
    });
  }
  const routes = ports.map(({ cluster }) => `nats://${host}:${cluster}`);
  const nodes: NodeState[] = [];
  for (const [index, port] of ports.entries()) {
    const name = `n${index + 1}`;
    const nodeDir = join(dataDir, name);
    await mkdir(nodeDir);
    const configFile = join(nodeDir, "nats-server.conf");
    await writeFile(
      configFile,
      renderNatsServerConfig({
        host,
        port: port.client,
        monitorPort: port.monitor,
        storeDir: join(nodeDir, "store"),
        shardCount: options.shardCount ?? 64,
        serverName: name,
        cluster: { name: "troupe-test", port: port.cluster, routes },
      }),
    );
    nodes.push({
      name,
      url: `nats://${host}:${port.client}`,
      monitorUrl: `http://${host}:${port.monitor}`,
      configFile,
      child: undefined,
      exited: undefined,
      output: "",
    });
  }

  const launch = (node: NodeState) => {
    const child = spawn(binary, ["-c", node.configFile], { stdio: ["ignore", "pipe", "pipe"] });
    node.output = "";
    const keep = (chunk: Buffer) => {
      node.output = (node.output + chunk.toString()).slice(-20_000);
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    child.on("error", () => undefined);
    const killOnExit = () => child.kill("SIGKILL");
    process.once("exit", killOnExit);
    node.exited = once(child, "exit").finally(() => process.removeListener("exit", killOnExit));
    node.child = child;
  };
  const isRunning = (node: NodeState) =>
    node.child !== undefined && node.child.exitCode === null && node.child.signalCode === null;
  const waitHealthy = async (node: NodeState) => {
    try {
      await waitFor(
        async () => {
          if (!isRunning(node)) throw new Error(`${node.name} exited:\n${node.output}`);
          const response = await fetch(`${node.monitorUrl}/healthz`, {
            signal: AbortSignal.timeout(1_000),
          });
          await response.body?.cancel();
          return response.ok;
        },
        {
          timeoutMs: startTimeoutMs,
          intervalMs: 100,
          description: `nats-server ${node.name} healthy`,
        },
      );
    } catch (error) {
      throw new Error(`${String(error)}\noutput of ${node.name}:\n${node.output}`, {
        cause: error,
      });
    }
  };
  const nodeNamed = (name: string) => {
    const node = nodes.find((candidate) => candidate.name === name);
    if (node === undefined)
      throw new Error(`no node ${name} (nodes: ${nodes.map((n) => n.name).join(", ")})`);
    return node;
  };
  const stop = async () => {
    await Promise.all(
      nodes.map(async (node) => {
        if (!isRunning(node)) return;
        node.child?.kill("SIGTERM");
        const timer = setTimeout(() => node.child?.kill("SIGKILL"), 5_000);
        await node.exited;
        clearTimeout(timer);
      }),
    );
    await rm(dataDir, { recursive: true, force: true });
  };

  try {
    nodes.forEach(launch);
    await Promise.all(nodes.map(waitHealthy));
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    nodes: nodes.map((node) => ({
      name: node.name,
      url: node.url,
      monitorUrl: node.monitorUrl,
      running: () => isRunning(node),
    })),
    urls: nodes.map((node) => node.url),
    async kill(name) {
      const node = nodeNamed(name);
      if (!isRunning(node)) return;
      node.child?.kill("SIGKILL");
      await node.exited;
    },
    async restart(name) {
      const node = nodeNamed(name);
      if (isRunning(node)) throw new Error(`${name} is running; kill it first`);
      launch(node);
      await waitHealthy(node);
    },
    async streamLeader(jsm, stream, timeoutMs = 15_000) {
      let leader: string | undefined;
      await waitFor(
        async () => {
          leader = (await jsm.streams.info(stream)).cluster?.leader;
          return leader !== undefined && leader !== "";
        },
        { timeoutMs, intervalMs: 100, description: `a leader of stream ${stream}` },
      );
      return leader as string;
    },
    stop,
    async [Symbol.asyncDispose]() {
      await stop();
    },
  };
}
