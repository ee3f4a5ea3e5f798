import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { cliEnv, troupeBin } from "./troupe-cli.js";
import { waitFor } from "./wait-for.js";

const repositoryRoot = fileURLToPath(new URL("../../../", import.meta.url));

/** A long-running `troupe <command>` child process (`a2a`, `gateway`, …). */
export interface TroupeServerProcess {
  readonly child: ChildProcess;
  /** What it printed on stdout so far. */
  stdout(): string;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** SIGKILL (no shutdown at all), then waits for the exit. */
  kill(): Promise<void>;
  /** SIGTERM, then waits for the exit code (SIGKILL after 10 000 ms). */
  stop(): Promise<number | null>;
}

/**
 * Starts `troupe <args>` against the `troupe dev` of `home` and waits until
 * its stdout satisfies `ready`.
 *
 * @param home - TROUPE_HOME of the running `troupe dev`.
 * @param args - the command and its arguments, e.g. `["gateway", "--port", "0"]`.
 * @param options - `ready` (true once stdout shows the process serves), `name`
 *   for errors, `readyTimeoutMs` (default 60 000), `env` (extra variables).
 * @throws Error with the output when it exits first or is not ready in time.
 */
export async function startTroupeServerProcess(
  home: string,
  args: readonly string[],
  options: {
    ready: (stdout: string) => boolean;
    name: string;
    readyTimeoutMs?: number;
    /** Extra environment variables (e.g. `TROUPE_NATS_*` credentials). */
    env?: Record<string, string>;
  },
): Promise<TroupeServerProcess> {
  const child = spawn(process.execPath, [troupeBin, ...args], {
    cwd: repositoryRoot,
    env: cliEnv(home, options.env),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString("utf8");
    output += chunk.toString("utf8");
  });
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  const exited = new Promise<number | null>((resolve) => child.once("close", resolve));
  let hasExited = false;
  void exited.then(() => (hasExited = true));
  try {
    await waitFor(() => hasExited || options.ready(stdout), {
      timeoutMs: options.readyTimeoutMs ?? 60_000,
      description: `${options.name} ready`,
    });
    if (hasExited) throw new Error(`${options.name} exited before it was ready:\n${output}`);
  } catch (error) {
    child.kill("SIGKILL");
    await exited;
    throw error;
  }
  return {
    child,
    stdout: () => stdout,
    output: () => output,
    async kill() {
      if (!hasExited) child.kill("SIGKILL");
      await exited;
    },
    async stop() {
      if (!hasExited) child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}
