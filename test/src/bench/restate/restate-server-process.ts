import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import { findFreePort } from "@troupe/dev";
import { testRunMarker } from "../../harness/test-run-marker.js";
import { RestateUnavailableError } from "./restate-unavailable-error.js";
import { renderRestateServerConfig } from "./restate-server-config.js";
import { spawnProcess, type SpawnedProcess } from "./spawned-process.js";

/** A running `restate-server`; see {@link startRestateServer}. */
export interface RestateServer {
  /** Its process id: the Rust binary itself, not the npm package's Node wrapper. */
  readonly pid: number;
  /** `restate-server --version`, e.g. `restate-server 1.7.12`. */
  readonly version: string;
  /** HTTP ingress, e.g. `http://127.0.0.1:40123`. */
  readonly ingressUrl: string;
  /** Admin API, e.g. `http://127.0.0.1:40124`. */
  readonly adminUrl: string;
  /** Its fresh folder in `os.tmpdir()`: config and `base-dir`; removed by `stop`. */
  readonly folder: string;
  /** Its last output lines. */
  readonly outputTail: () => string;
  /** SIGTERM (SIGKILL after 15 s), then removes {@link RestateServer.folder}. Safe to call more than once. */
  readonly stop: () => Promise<void>;
}

/**
 * The platform binary that `@restatedev/restate-server` brings through its
 * optional dependency `@restatedev/restate-server-<platform>-<arch>` (its
 * `restate-server` bin is a Node wrapper that spawns this file; running the
 * binary directly keeps the wrapper's CPU and pid out of the measurement).
 *
 * @returns the absolute path, or undefined when this platform's package is not installed.
 */
export function findRestateServerBinary(): string | undefined {
  const require = createRequire(import.meta.url);
  try {
    return require.resolve(
      `@restatedev/restate-server-${process.platform}-${process.arch}/bin/restate-server`,
    );
  } catch {
    return undefined;
  }
}

/**
 * Starts `restate-server` on loopback: three free ports (ingress, admin,
 * fabric) on 127.0.0.1, the configuration of {@link renderRestateServerConfig}
 * in a fresh folder `<test run marker>restate-XXXXXX` in `os.tmpdir()` (also its
 * `base-dir`), and resolves once the admin API answers `GET /health` and the
 * ingress `GET /restate/health` with 200. A port taken between choosing and
 * binding it makes the server exit; that is retried on new ports (3 attempts).
 *
 * @param readyTimeoutMs - how long it may take to become ready, in ms, per attempt.
 * @returns the running server.
 * @throws RestateUnavailableError when the binary is missing or cannot run, or
 *   the server exits or is not ready in time (then it is stopped and its folder removed).
 */
export async function startRestateServer(readyTimeoutMs: number): Promise<RestateServer> {
  const binary = findRestateServerBinary();
  if (binary === undefined)
    throw new RestateUnavailableError(
      `no restate-server binary for ${process.platform}-${process.arch} (npm package @restatedev/restate-server-${process.platform}-${process.arch} not installed)`,
    );
  let version: string;
  try {
    version = (await promisify(execFile)(binary, ["--version"], { timeout: 10_000 })).stdout.trim();
  } catch (error) {
    throw new RestateUnavailableError(`restate-server does not run: ${String(error)}`, "", {
      cause: error,
    });
  }
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startOnce(binary, version, readyTimeoutMs);
    } catch (error) {
      const portTaken =
        RestateUnavailableError.isInstance(error) && /address already in use/i.test(error.message);
      if (!portTaken || attempt >= 3) throw error;
    }
  }
}

async function startOnce(
  binary: string,
  version: string,
  readyTimeoutMs: number,
): Promise<RestateServer> {
  const folder = await mkdtemp(join(tmpdir(), `${testRunMarker()}restate-`));
  const { ingressPort, adminPort, fabricPort } = await freePorts();
  const configFile = join(folder, "restate.toml");
  await writeFile(
    configFile,
    renderRestateServerConfig({
      baseDir: join(folder, "data"),
      ingressPort,
      adminPort,
      fabricPort,
    }),
  );
  let server: SpawnedProcess | undefined;
  const stop = async (): Promise<void> => {
    await server?.stop(15_000);
    await rm(folder, { recursive: true, force: true });
  };
  try {
    server = await spawnProcess(binary, ["--config-file", configFile, "--no-logo"], {
      cwd: folder,
    });
    const ingressUrl = `http://127.0.0.1:${ingressPort}`;
    const adminUrl = `http://127.0.0.1:${adminPort}`;
    const deadline = performance.now() + readyTimeoutMs;
    const running = server;
    const remainingMs = () => Math.max(1, Math.min(1_000, deadline - performance.now()));
    const ready = async () =>
      (await answers200(`${adminUrl}/health`, remainingMs())) &&
      (await answers200(`${ingressUrl}/restate/health`, remainingMs()));
    while (!(await ready())) {
      if (running.hasExited()) throw new Error("restate-server exited");
      if (performance.now() > deadline)
        throw new Error(`restate-server not ready within ${readyTimeoutMs} ms`);
      await sleep(50);
    }
    return {
      pid: running.pid,
      version,
      ingressUrl,
      adminUrl,
      folder,
      outputTail: running.outputTail,
      stop,
    };
  } catch (error) {
    const output = server?.outputTail() ?? "";
    await stop();
    throw new RestateUnavailableError(
      error instanceof Error ? error.message : String(error),
      output,
      { cause: error },
    );
  }
}

/** Three different ports free on 127.0.0.1 right now. */
async function freePorts(): Promise<{
  ingressPort: number;
  adminPort: number;
  fabricPort: number;
}> {
  const ports = new Set<number>();
  while (ports.size < 3) ports.add(await findFreePort("127.0.0.1"));
  const [ingressPort = 0, adminPort = 0, fabricPort = 0] = [...ports];
  return { ingressPort, adminPort, fabricPort };
}

async function answers200(url: string, timeoutMs: number): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    return response.status === 200;
  } catch {
    return false;
  }
}
