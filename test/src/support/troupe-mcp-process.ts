import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { cliEnv, troupeBin } from "./troupe-cli.js";
import { waitFor } from "./wait-for.js";

const repositoryRoot = fileURLToPath(new URL("../../../", import.meta.url));

/** A `troupe mcp` child process serving over HTTP. */
export interface TroupeMcpProcess {
  /** The MCP endpoint from its startup line, e.g. `http://127.0.0.1:41234/mcp`. */
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything it printed (stdout and stderr). */
  output(): string;
  /** Sends `signal` (default SIGTERM) and waits for the exit; SIGKILL after 20 s. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts `troupe mcp <args>` against the `troupe dev` of `home` and waits for
 * its startup line (`troupe mcp: serving … at <url> (…)`).
 *
 * @param home - TROUPE_HOME of the running `troupe dev`.
 * @param args - arguments after `mcp`, e.g. `["--port", "0"]`.
 */
export async function startTroupeMcp(
  home: string,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<TroupeMcpProcess> {
  const child = spawn(process.execPath, [troupeBin, "mcp", ...args], {
    cwd: repositoryRoot,
    env: cliEnv(home, env),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  const exited = new Promise<number | null>((resolve) => child.once("close", resolve));
  let hasExited = false;
  void exited.then(() => (hasExited = true));
  await waitFor(() => hasExited || /serving .* at http:\/\/\S+/.test(output), {
    timeoutMs: 60_000,
    description: "troupe mcp startup line",
  }).catch((error: unknown) => {
    child.kill("SIGKILL");
    throw error;
  });
  if (hasExited) throw new Error(`troupe mcp exited before serving:\n${output}`);
  const url = /at (http:\/\/\S+)/.exec(output)![1]!;
  return {
    url,
    child,
    output: () => output,
    async stop(signal = "SIGTERM") {
      if (!hasExited) child.kill(signal);
      const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/** A TCP port free at the time of asking (for a process that must come back on the same port). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
