import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { testRunMarker } from "../../harness/test-run-marker.js";
import { cliEnv, troupeBin } from "../../support/troupe-cli.js";

/** A `troupe gateway` child process. */
export interface GatewayProcess {
  /** Base URL, e.g. `http://127.0.0.1:40123`. */
  readonly url: string;
  readonly pid: number;
  readonly child: ChildProcess;
  /** Everything it wrote to stderr so far. */
  readonly stderr: () => string;
  /** SIGTERM, then waits for the exit (SIGKILL after 10 s); removes its TROUPE_HOME. */
  readonly stop: () => Promise<void>;
}

/** What `troupe gateway` prints once listening: `troupe gateway: serving <url> (…)`. */
const servingLine = /troupe gateway: serving (http:\/\/\S+)/;

/**
 * Starts `troupe gateway --port 0 --no-console` against a deployment, as a
 * separate process like a real one (issue #16), with a fresh `TROUPE_HOME`
 * and no token (it listens on 127.0.0.1), and waits for its serving line.
 *
 * @param natsUrl - the deployment's NATS server.
 * @param redisUrl - its Redis server.
 * @param readyTimeoutMs - how long startup may take, in ms.
 * @param nodeArguments - Node flags before the script, e.g. `--cpu-prof` (not
 *   allowed in `NODE_OPTIONS`).
 * @returns the running gateway.
 * @throws Error with its output when it exits or is not serving in time.
 */
export async function startGatewayProcess(
  natsUrl: string,
  redisUrl: string,
  readyTimeoutMs = 60_000,
  nodeArguments: readonly string[] = [],
): Promise<GatewayProcess> {
  const home = await mkdtemp(join(tmpdir(), `${testRunMarker()}gateway-`));
  const child = spawn(
    process.execPath,
    [
      ...nodeArguments,
      troupeBin,
      "gateway",
      "--nats",
      natsUrl,
      "--redis",
      redisUrl,
      "--port",
      "0",
      "--no-console",
    ],
    {
      env: cliEnv(home, { TROUPE_LOG_LEVEL: process.env.TROUPE_LOG_LEVEL ?? "warn" }),
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));
  let hasExited = false;
  void exited.then(() => (hasExited = true));
  const stop = async (): Promise<void> => {
    if (!hasExited) child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    await exited;
    clearTimeout(timer);
    await rm(home, { recursive: true, force: true });
  };
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`troupe gateway not serving within ${readyTimeoutMs} ms`)),
        readyTimeoutMs,
      );
      child.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk.toString("utf8");
        const match = servingLine.exec(stdout);
        if (match?.[1] !== undefined) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
      void exited.then(() => {
        clearTimeout(timer);
        reject(new Error("troupe gateway exited before serving"));
      });
    });
    if (child.pid === undefined) throw new Error("troupe gateway has no pid");
    return { url, pid: child.pid, child, stderr: () => stderr, stop };
  } catch (error) {
    await stop();
    throw new Error(
      `${error instanceof Error ? error.message : String(error)}:\n${stdout}${stderr}`,
      { cause: error },
    );
  }
}
