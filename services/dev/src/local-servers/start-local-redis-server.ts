import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findFreePort } from "./find-free-port.js";
import { findServerBinary } from "./find-server-binary.js";
import { LocalServerStartError } from "./local-server-start-error.js";
import type { LocalServer } from "./local-server.js";
import { pingRedis } from "./ping-redis.js";
import { pollUntil } from "./poll-until.js";
import { renderRedisServerConfig } from "./redis-server-config.js";
import { ServerBinaryMissingError } from "./server-binary-missing-error.js";
import { spawnServerProcess, type ServerProcess } from "./server-process.js";

import type { LocalServerOptions } from "./local-server-options.js";

/** How many times a freshly chosen port is tried before giving up (another process may take it). */
const portAttempts = 3;

/**
 * Options of {@link startLocalRedisServer}: those of every local server (the
 * store directory holds the append-only file; `redis-server` refuses `--port 0`,
 * so a free port is chosen first; readiness is an answer to PING) plus
 * persistence.
 */
export interface LocalRedisServerOptions extends LocalServerOptions {
  /**
   * Persist writes in an append-only file fsynced every second
   * (`appendonly yes`, `appendfsync everysec`); default `false`: no persistence
   * at all (`save ""`, `appendonly no`), which suits tests.
   */
  readonly appendOnly?: boolean | undefined;
}

/**
 * Starts `redis-server` on a free loopback port with a generated configuration
 * (see {@link renderRedisServerConfig}) in a fresh temporary folder, and resolves
 * once it answers `PING`.
 *
 * When no port is given, a free one is chosen first; if another process takes it
 * before Redis binds it, the start is retried on a new port (3 attempts).
 *
 * @param options - See {@link LocalRedisServerOptions}.
 * @returns The running server.
 * @throws {@link ServerBinaryMissingError} when `redis-server` is not installed.
 * @throws {@link LocalServerStartError} when it exits or does not answer in time.
 *
 * @example
 * ```ts
 * const redis = await startLocalRedisServer({ appendOnly: true });
 * try {
 *   const client = new Redis(redis.url);
 * } finally {
 *   await redis.stop();
 * }
 * ```
 */
export async function startLocalRedisServer(
  options: LocalRedisServerOptions = {},
): Promise<LocalServer> {
  const binary = options.binary ?? findServerBinary("redis-server");
  if (binary === undefined) throw new ServerBinaryMissingError("redis-server");
  const host = options.host ?? "127.0.0.1";
  // 0 is a free port, as in Node.js (to redis-server it means no TCP at all).
  const port = options.port === 0 ? undefined : options.port;
  const attempts = port === undefined ? portAttempts : 1;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startOnce(binary, host, port ?? (await findFreePort(host)), options);
    } catch (error) {
      const portTaken =
        LocalServerStartError.isInstance(error) && /address already in use/i.test(error.outputTail);
      if (!portTaken || attempt >= attempts) throw error;
    }
  }
}

async function startOnce(
  binary: string,
  host: string,
  port: number,
  options: LocalRedisServerOptions,
): Promise<LocalServer> {
  const startTimeoutMs = options.startTimeoutMs ?? 10_000;
  const stopTimeoutMs = options.stopTimeoutMs ?? 5_000;
  const dataDir = await mkdtemp(join(tmpdir(), options.dataDirPrefix ?? "troupe-redis-"));
  const configFile = join(dataDir, "redis.conf");
  await writeFile(
    configFile,
    renderRedisServerConfig({
      host,
      port,
      storeDir: options.storeDir ?? dataDir,
      appendOnly: options.appendOnly ?? false,
    }),
  );

  let server: ServerProcess | undefined;
  const stop = async (): Promise<void> => {
    await server?.stop(stopTimeoutMs);
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    server = await spawnServerProcess({
      binary,
      args: [configFile],
      cwd: dataDir,
      detached: options.detached,
    });
    const running = server;
    const answered = await pollUntil(
      async () => {
        if (running.hasExited()) throw new Error("the process exited");
        return (await pingRedis(host, port, 1_000)) ? true : undefined;
      },
      { timeoutMs: startTimeoutMs },
    );
    if (answered !== true) throw new Error(`no answer to PING within ${startTimeoutMs} ms`);
    const urlHost = host.includes(":") ? `[${host}]` : host;
    return { url: `redis://${urlHost}:${port}`, pid: running.pid, dataDir, stop };
  } catch (error) {
    const outputTail = server?.outputTail() ?? "";
    await stop();
    const reason = error instanceof Error ? error.message : String(error);
    throw new LocalServerStartError("redis-server", reason, outputTail, { cause: error });
  }
}
