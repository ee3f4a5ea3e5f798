import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { devStateSchema, type DevState } from "@troupe/host/internal";
import { testRunMarker } from "../../harness/test-run-marker.js";
import { cliEnv, troupeBin } from "../../support/troupe-cli.js";
import { childProcesses } from "./child-processes.js";

const repositoryRoot = fileURLToPath(new URL("../../../../", import.meta.url));

/**
 * The last line of the banner `troupe dev` prints once everything runs
 * (`printBanner` in `services/cli/src/cli/commands/dev-command.ts`); it comes
 * after the state file was written.
 */
export const devBannerLastLine = "stops the hosts, then the servers.";

/** The processes of a running `troupe dev`, by pid. */
export interface TroupeDevPids {
  /** `troupe dev` itself: the gateway, the host log formatter, the host supervisor. */
  readonly dev: number;
  /** Its `troupe host` children, host 1 first. */
  readonly hosts: readonly number[];
  readonly natsServer: number;
  readonly redisServer: number;
}

/** A `troupe dev` child process; see {@link startTroupeDevProcess}. */
export interface TroupeDevProcess {
  /** Its `TROUPE_HOME`, a fresh temporary folder (removed by `stop`). */
  readonly home: string;
  /** The state file it wrote (`dev.json`): URLs, prefix, hosts. */
  readonly state: DevState;
  readonly pids: TroupeDevPids;
  /** From spawn to the banner's last line, in ms. */
  readonly startupMs: number;
  /** Lines it printed (stdout and stderr) so far. */
  readonly lineCount: () => number;
  /** Its last lines (at most 50), for an error message. */
  readonly tail: () => string;
  /** SIGINT (Ctrl-C), then waits for its exit (SIGKILL after 30 s); removes `home`. */
  readonly stop: () => Promise<void>;
}

/** Options of {@link startTroupeDevProcess}. */
export interface TroupeDevProcessOptions {
  /** Arguments after `troupe dev` (free ports are added here: `--nats-port 0` …). */
  readonly args: readonly string[];
  /** Extra environment (e.g. `TROUPE_CLI_MODE`, `NODE_OPTIONS`); reaches its hosts too. */
  readonly env?: Readonly<Record<string, string>>;
  /** How long startup may take, in ms. */
  readonly readyTimeoutMs: number;
}

/**
 * Starts the real `troupe dev` as a child process, as a user does (the
 * repository's `troupe` executable, from the repository root) with
 * `--nats-port 0 --redis-port 0 --gateway-port 0 --fresh` and a fresh
 * `TROUPE_HOME` (named with the test run's marker, so a leftover folder is
 * swept), no inherited `TROUPE_NATS_URL`/`TROUPE_REDIS_URL`/`TROUPE_LOG_LEVEL`
 * and no colors. Ready when its banner's last line ({@link devBannerLastLine})
 * arrives on stdout; then reads its state file and finds its `nats-server`
 * and `redis-server` among its child processes (`/proc`).
 *
 * @param options - arguments, environment, ready timeout.
 * @returns the running process.
 * @throws Error with its last output when it exits or is not ready in time,
 *   or when its servers are not among its children (it then is stopped).
 */
export async function startTroupeDevProcess(
  options: TroupeDevProcessOptions,
): Promise<TroupeDevProcess> {
  const home = await mkdtemp(join(tmpdir(), `${testRunMarker()}dev-bench-`));
  const env = cliEnv(home, { ...options.env });
  // The default path: the hosts' log level is troupe dev's own default (warn).
  if (options.env?.TROUPE_LOG_LEVEL === undefined) delete env.TROUPE_LOG_LEVEL;
  const startedAtMs = performance.now();
  const child = spawn(
    process.execPath,
    [
      troupeBin,
      "dev",
      "--nats-port",
      "0",
      "--redis-port",
      "0",
      "--gateway-port",
      "0",
      "--fresh",
      ...options.args,
    ],
    { cwd: repositoryRoot, env, stdio: ["ignore", "pipe", "pipe"] },
  );
  const lines: string[] = [];
  let lineCount = 0;
  const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));
  let hasExited = false;
  void exited.then(() => (hasExited = true));
  let onBanner: () => void = () => undefined;
  const banner = new Promise<void>((resolve) => (onBanner = resolve));
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on("line", (line) => {
      lineCount += 1;
      lines.push(line);
      if (lines.length > 50) lines.shift();
      if (line.includes(devBannerLastLine)) onBanner();
    });
  }
  const tail = () => lines.join("\n");
  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      if (!hasExited) child.kill("SIGINT");
      const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
      await exited;
      clearTimeout(timer);
      await rm(home, { recursive: true, force: true });
    })());
  try {
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([
      banner.then(() => "ready" as const),
      exited.then(() => "exited" as const),
      new Promise<"timeout">((resolve) => {
        timer = setTimeout(() => resolve("timeout"), options.readyTimeoutMs);
      }),
    ]);
    clearTimeout(timer);
    if (outcome !== "ready") {
      throw new Error(
        outcome === "exited"
          ? "troupe dev exited before its banner"
          : `troupe dev printed no banner within ${options.readyTimeoutMs} ms`,
      );
    }
    const startupMs = performance.now() - startedAtMs;
    const state = devStateSchema.parse(
      JSON.parse(await readFile(join(home, "dev.json"), "utf8")) as unknown,
    );
    const children = await childProcesses(state.pid);
    const server = (command: string) => {
      const found = children.find((entry) => entry.command === command);
      if (found === undefined) throw new Error(`no ${command} among troupe dev's children`);
      return found.pid;
    };
    const pids: TroupeDevPids = {
      dev: state.pid,
      hosts: state.hosts.map((host) => host.pid),
      natsServer: server("nats-server"),
      redisServer: server("redis-server"),
    };
    return { home, state, pids, startupMs, lineCount: () => lineCount, tail, stop };
  } catch (error) {
    await stop();
    throw new Error(`${error instanceof Error ? error.message : String(error)}:\n${tail()}`, {
      cause: error,
    });
  }
}
