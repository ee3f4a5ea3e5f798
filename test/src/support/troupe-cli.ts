import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { stripVTControlCharacters } from "node:util";
import { devStateSchema, type DevState } from "@troupe/host/internal";
import { troupeBinPath } from "@troupe/cli/internal";
import { testRunMarker } from "../harness/test-run-marker.js";
import { waitFor } from "./wait-for.js";

/** The `troupe` executable of this repository. */
export const troupeBin = troupeBinPath;
const repositoryRoot = fileURLToPath(new URL("../../../", import.meta.url));

/** How a `troupe` command ended. */
export interface TroupeResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `troupe <args>` to completion, as a user would from the repository root.
 *
 * @param args - command-line arguments.
 * @param options - `home` (TROUPE_HOME), extra env, timeout in ms (default 60 000; SIGKILL then),
 *   `input` written to stdin (a pipe, then EOF; without it stdin is closed).
 */
export async function runTroupe(
  args: readonly string[],
  options: { home: string; env?: Record<string, string>; timeoutMs?: number; input?: string },
): Promise<TroupeResult> {
  const child = spawn(process.execPath, [troupeBin, ...args], {
    cwd: repositoryRoot,
    env: cliEnv(options.home, options.env),
    stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  if (options.input !== undefined) {
    child.stdin!.on("error", () => undefined); // a refusal may exit before reading it all
    child.stdin!.end(options.input);
  }
  const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 60_000);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.once("close", (exitCode, exitSignal) => resolve([exitCode, exitSignal])),
  );
  clearTimeout(timer);
  return { code, signal, stdout, stderr };
}

/** `troupe chat` in a pseudo-terminal (util-linux `script`), as a person at a terminal runs it. */
export interface PtyChat {
  /** Types `text` (a line ends with "\n"). */
  readonly type: (text: string) => void;
  /** The screen so far, without terminal control sequences and carriage returns. */
  readonly plain: () => string;
  /** How often `text` appears on {@link plain}. */
  readonly count: (text: string) => number;
  /** The exit code of `script` (the chat's own). */
  readonly exited: Promise<number | null>;
  /** SIGKILL, for a `finally`. */
  readonly kill: () => void;
}

/**
 * Starts `troupe chat <sessionId>` in a pseudo-terminal against the `troupe
 * dev` of `home`.
 */
export function startPtyChat(sessionId: string, home: string): PtyChat {
  const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(troupeBin)} chat ${sessionId}`;
  const child = spawn("script", ["-qfec", command, "/dev/null"], {
    env: cliEnv(home),
    stdio: ["pipe", "pipe", "pipe"],
  });
  let screen = "";
  child.stdout.on("data", (chunk: Buffer) => (screen += chunk.toString("utf8")));
  const plain = () => stripVTControlCharacters(screen).replace(/\r/g, "");
  return {
    type: (text) => void child.stdin.write(text),
    plain,
    count: (text) => plain().split(text).length - 1,
    exited: new Promise((resolve) => child.once("close", resolve)),
    kill: () => child.kill("SIGKILL"),
  };
}

/** The environment of a `troupe` child: no inherited Troupe URLs, no colors. */
export function cliEnv(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, TROUPE_HOME: home, NO_COLOR: "1", ...extra };
  for (const name of ["TROUPE_NATS_URL", "TROUPE_REDIS_URL", "FORCE_COLOR"]) {
    if (!(name in extra)) delete env[name];
  }
  return env;
}

/** A `troupe dev` child process. */
export interface TroupeDev {
  readonly home: string;
  readonly child: ChildProcess;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** The dev state file it wrote. */
  state(): Promise<DevState>;
  /** SIGINT (as Ctrl-C), then waits for the exit; SIGKILL after `timeoutMs` (default 30 000). */
  stop(timeoutMs?: number): Promise<number | null>;
}

/**
 * Starts `troupe dev` with a fresh TROUPE_HOME (a test temp folder) on free
 * ports and waits for the whole of its "Troupe is running" banner.
 *
 * @param args - extra arguments, e.g. `["--hosts", "2"]`.
 * @param readyTimeoutMs - how long startup may take, in ms; default 90 000.
 */
export async function startTroupeDev(
  args: readonly string[] = [],
  readyTimeoutMs = 90_000,
): Promise<TroupeDev> {
  const home = await mkdtemp(join(tmpdir(), `${testRunMarker()}cli-`));
  const child = spawn(
    process.execPath,
    [troupeBin, "dev", "--nats-port", "0", "--redis-port", "0", "--gateway-port", "0", ...args],
    { cwd: repositoryRoot, env: cliEnv(home), stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  const exited = new Promise<number | null>((resolve) =>
    child.once("close", (code) => resolve(code)),
  );
  let hasExited = false;
  void exited.then(() => (hasExited = true));
  try {
    // The banner's last line: the lines before it may come in later chunks
    // than "Troupe is running".
    await waitFor(() => hasExited || output.includes("stops the hosts, then the servers."), {
      timeoutMs: readyTimeoutMs,
      description: "troupe dev banner",
    });
    if (hasExited) throw new Error(`troupe dev exited before it was ready:\n${output}`);
  } catch (error) {
    child.kill("SIGKILL");
    await exited;
    await rm(home, { recursive: true, force: true });
    throw error;
  }
  return {
    home,
    child,
    output: () => output,
    state: async () =>
      devStateSchema.parse(JSON.parse(await readFile(join(home, "dev.json"), "utf8"))),
    async stop(timeoutMs = 30_000) {
      if (!hasExited) child.kill("SIGINT");
      const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
      const code = await exited;
      clearTimeout(timer);
      await rm(home, { recursive: true, force: true });
      return code;
    },
  };
}
