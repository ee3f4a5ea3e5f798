import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { cliEnv, troupeBin } from "../support/troupe-cli.js";
import { waitFor } from "../support/wait-for.js";

const repositoryRoot = fileURLToPath(new URL("../../../", import.meta.url));

/** The ready line `troupe a2a --json` prints. */
export interface A2aReady {
  readonly ready: true;
  readonly url: string;
  readonly auth: "none" | "bearer";
  readonly agents: { name: string; cardUrl: string; endpoint: string }[];
}

/** A `troupe a2a` child process. */
export interface TroupeA2a {
  readonly child: ChildProcess;
  readonly ready: A2aReady;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** SIGKILL (no shutdown at all), then waits for the exit. */
  kill(): Promise<void>;
  /** SIGTERM, then waits for the exit code (SIGKILL after 10 000 ms). */
  stop(): Promise<number | null>;
}

/**
 * Starts `troupe a2a --json <args>` against the `troupe dev` of `home` and
 * waits for its ready line.
 *
 * @param home - TROUPE_HOME of the running `troupe dev`.
 * @param args - extra arguments, e.g. `["--port", "0", "--token", "t"]`.
 * @param readyTimeoutMs - how long startup may take, in ms; default 60 000.
 * @throws Error with the output when it exits first or is not ready in time.
 */
export async function startTroupeA2a(
  home: string,
  args: readonly string[],
  readyTimeoutMs = 60_000,
): Promise<TroupeA2a> {
  const child = spawn(process.execPath, [troupeBin, "a2a", "--json", ...args], {
    cwd: repositoryRoot,
    env: cliEnv(home),
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
    await waitFor(() => hasExited || stdout.includes("\n"), {
      timeoutMs: readyTimeoutMs,
      description: "troupe a2a ready line",
    });
    if (hasExited) throw new Error(`troupe a2a exited before it was ready:\n${output}`);
  } catch (error) {
    child.kill("SIGKILL");
    await exited;
    throw error;
  }
  const ready = JSON.parse(stdout.split("\n")[0]!) as A2aReady;
  return {
    child,
    ready,
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
