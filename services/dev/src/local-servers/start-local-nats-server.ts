import { DEFAULT_SHARD_COUNT } from "@troupe/protocol";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findServerBinary } from "./find-server-binary.js";
import { LocalServerStartError } from "./local-server-start-error.js";
import type { LocalServer } from "./local-server.js";
import { renderNatsServerConfig } from "./nats-server-config.js";
import { pollUntil } from "./poll-until.js";
import { ServerBinaryMissingError } from "./server-binary-missing-error.js";
import type { LocalServerOptions } from "./local-server-options.js";
import { spawnServerProcess, type ServerProcess } from "./server-process.js";

/**
 * Options of {@link startLocalNatsServer}: those of every local server (the
 * store directory is JetStream's; the client port defaults to one the server
 * picks itself; readiness is JetStream reporting healthy) plus the shard count.
 */
export interface LocalNatsServerOptions extends LocalServerOptions {
  /** Inbox shard count of the subject mapping; default 64. */
  readonly shardCount?: number | undefined;
}

/** A local `nats-server`: a {@link LocalServer} plus its monitor endpoint. */
export interface LocalNatsServer extends LocalServer {
  /** HTTP monitor base URL, for example `http://127.0.0.1:40013` (`/healthz`, `/varz`, `/jsz`). */
  readonly monitorUrl: string;
  /**
   * Rewrites the configuration with another shard count's inbox mapping and
   * sends the server SIGHUP (nats-server reloads its configuration, mappings
   * included, without dropping connections). Resolves once the signal is sent;
   * the reload itself takes a few milliseconds (`changeShardCount` waits for a
   * probe to show the new mapping). See docs/decisions/0035.
   *
   * @param shardCount - the new shard count.
   */
  reloadWithShardCount(shardCount: number): Promise<void>;
}

interface PortsFile {
  readonly nats?: readonly string[];
  readonly monitoring?: readonly string[];
}

/**
 * Starts `nats-server` with JetStream on free loopback ports, with a generated
 * configuration (see {@link renderNatsServerConfig}) in a fresh temporary folder,
 * and resolves once JetStream is healthy (`/healthz?js-enabled-only=true` answers
 * 200 on the monitor port).
 *
 * The server chooses its own free ports (`port: -1`) and reports them in a ports
 * file, so there is no window in which another process could take them.
 *
 * @param options - See {@link LocalNatsServerOptions}.
 * @returns The running server.
 * @throws {@link ServerBinaryMissingError} when `nats-server` is not installed.
 * @throws {@link LocalServerStartError} when it exits or is not healthy in time.
 *
 * @example
 * ```ts
 * const nats = await startLocalNatsServer({ shardCount: 64 });
 * try {
 *   const connection = await connect({ servers: nats.url });
 * } finally {
 *   await nats.stop();
 * }
 * ```
 */
export async function startLocalNatsServer(
  options: LocalNatsServerOptions = {},
): Promise<LocalNatsServer> {
  const binary = options.binary ?? findServerBinary("nats-server");
  if (binary === undefined) throw new ServerBinaryMissingError("nats-server");
  const startTimeoutMs = options.startTimeoutMs ?? 10_000;
  const stopTimeoutMs = options.stopTimeoutMs ?? 5_000;

  const dataDir = await mkdtemp(join(tmpdir(), options.dataDirPrefix ?? "troupe-nats-"));
  const configFile = join(dataDir, "nats-server.conf");
  const writeConfig = (shardCount: number) =>
    writeFile(
      configFile,
      renderNatsServerConfig({
        host: options.host ?? "127.0.0.1",
        port: options.port,
        storeDir: options.storeDir ?? join(dataDir, "store"),
        shardCount,
        portsFileDir: dataDir,
      }),
    );
  await writeConfig(options.shardCount ?? DEFAULT_SHARD_COUNT);

  let server: ServerProcess | undefined;
  const stop = async (): Promise<void> => {
    await server?.stop(stopTimeoutMs);
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    server = await spawnServerProcess({
      binary,
      args: ["-c", configFile],
      cwd: dataDir,
      detached: options.detached,
    });
    const running = server;
    const portsFile = join(dataDir, `nats-server_${running.pid}.ports`);
    const ports = await pollUntil(
      async () => {
        if (running.hasExited()) throw new Error("the process exited");
        return await readPortsFile(portsFile);
      },
      { timeoutMs: startTimeoutMs },
    );
    const url = ports?.nats?.[0];
    const monitorUrl = ports?.monitoring?.[0];
    if (url === undefined || monitorUrl === undefined) {
      throw new Error(`no ports file within ${startTimeoutMs} ms`);
    }
    const healthy = await pollUntil(
      async () => {
        if (running.hasExited()) throw new Error("the process exited");
        return (await isJetStreamHealthy(monitorUrl)) ? true : undefined;
      },
      { timeoutMs: startTimeoutMs },
    );
    if (healthy !== true) throw new Error(`JetStream not healthy within ${startTimeoutMs} ms`);
    const reloadWithShardCount = async (shardCount: number): Promise<void> => {
      await writeConfig(shardCount);
      process.kill(running.pid, "SIGHUP");
    };
    return { url, monitorUrl, pid: running.pid, dataDir, stop, reloadWithShardCount };
  } catch (error) {
    const outputTail = server?.outputTail() ?? "";
    await stop();
    const reason = error instanceof Error ? error.message : String(error);
    throw new LocalServerStartError("nats-server", reason, outputTail, { cause: error });
  }
}

async function readPortsFile(path: string): Promise<PortsFile | undefined> {
  try {
    return JSON.parse(await readFile(path, "utf8")) as PortsFile;
  } catch {
    // Not written yet, or caught half-written.
    return undefined;
  }
}

async function isJetStreamHealthy(monitorUrl: string): Promise<boolean> {
  try {
    const response = await fetch(`${monitorUrl}/healthz?js-enabled-only=true`, {
      signal: AbortSignal.timeout(1_000),
    });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}
