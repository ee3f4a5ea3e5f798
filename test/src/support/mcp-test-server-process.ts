import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import type { McpTestServerState } from "./mcp-test-server.js";
import { nodeArgsFor } from "../harness/child-code.js";

const repositoryRoot = fileURLToPath(new URL("../../../", import.meta.url));

/** The MCP test server of mcp-test-server.ts, running as a child process. */
export interface McpTestServerProcess extends AsyncDisposable {
  /** Its Streamable HTTP endpoint, `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  /** What it saw so far: executions, `tools/call` requests with `_meta`, cancellations. */
  state(): Promise<McpTestServerState>;
  /** Lets every blocked call finish. */
  release(): Promise<void>;
  /** SIGKILL, then waits for the exit. */
  stop(): Promise<void>;
}

/**
 * Starts the MCP test server (issue #15) and waits for its URL.
 *
 * @param readyTimeoutMs - how long startup may take, in ms (default 30 000).
 * @returns the running server.
 * @throws Error with its stderr when it exits or is not ready in time.
 */
export async function startMcpTestServer(readyTimeoutMs = 30_000): Promise<McpTestServerProcess> {
  const child = spawn(process.execPath, nodeArgsFor("test/src/support/mcp-test-server.ts"), {
    cwd: repositoryRoot,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  const exited = once(child, "exit");
  void exited.then(() => process.removeListener("exit", killOnExit));
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once("line", (line) => {
      resolve((JSON.parse(line) as { url: string }).url);
    });
    void exited.then(() => reject(new Error(`the MCP test server exited:\n${stderr}`)));
    setTimeout(
      () => reject(new Error(`the MCP test server is not ready:\n${stderr}`)),
      readyTimeoutMs,
    ).unref();
  }).catch((error: unknown) => {
    child.kill("SIGKILL");
    throw error;
  });
  const base = new URL(url);
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGKILL");
    await exited;
  };
  return {
    url,
    async state() {
      const response = await fetch(new URL("/state", base));
      return (await response.json()) as McpTestServerState;
    },
    async release() {
      await fetch(new URL("/release", base), { method: "POST" });
    },
    stop,
    [Symbol.asyncDispose]: stop,
  };
}
