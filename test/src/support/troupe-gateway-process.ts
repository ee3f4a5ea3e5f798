import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { cliEnv, troupeBin } from "./troupe-cli.js";
import { waitFor } from "./wait-for.js";

const repositoryRoot = fileURLToPath(new URL("../../../", import.meta.url));

/** A `troupe gateway` child process (issue #16). */
export interface TroupeGateway {
  readonly child: ChildProcess;
  /** Base URL from its startup line, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** SIGKILL (no shutdown at all), then waits for the exit. */
  kill(): Promise<void>;
  /** SIGTERM, then waits for the exit code (SIGKILL after 10 000 ms). */
  stop(): Promise<number | null>;
}

/**
 * Starts `troupe gateway <args>` against the `troupe dev` of `home` and waits
 * for its startup line (`troupe gateway: serving <url> (…)`).
 *
 * @param home - TROUPE_HOME of the running `troupe dev`.
 * @param args - e.g. `["--port", "0", "--token", "t"]`; without `--port` it is `--port 0`.
 * @param readyTimeoutMs - how long startup may take, in ms; default 60 000.
 * @throws Error with the output when it exits first or is not ready in time.
 */
export async function startTroupeGateway(
  home: string,
  args: readonly string[] = [],
  readyTimeoutMs = 60_000,
): Promise<TroupeGateway> {
  const portArgs = args.includes("--port") ? [] : ["--port", "0"];
  const child = spawn(process.execPath, [troupeBin, "gateway", ...portArgs, ...args], {
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
  const line = () => /troupe gateway: serving (\S+) \(/.exec(stdout)?.[1];
  try {
    await waitFor(() => hasExited || line() !== undefined, {
      timeoutMs: readyTimeoutMs,
      description: "troupe gateway startup line",
    });
  } catch (error) {
    child.kill("SIGKILL");
    throw new Error(`troupe gateway did not start: ${String(error)}\n${output}`);
  }
  const url = line();
  if (url === undefined) throw new Error(`troupe gateway exited before serving:\n${output}`);
  return {
    child,
    url,
    output: () => output,
    kill: async () => {
      child.kill("SIGKILL");
      await exited;
    },
    stop: async () => {
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      try {
        return await exited;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
