import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { createInterface } from "node:readline";
import { parseReadyLine } from "@troupe/host";
import { nodeArgsFor } from "../harness/child-code.js";
import { HostProcessExitedError } from "./host-process-exited-error.js";

const repositoryRoot = fileURLToPath(new URL("../../../", import.meta.url));

/** Options of {@link startHostProcess}. */
export interface HostProcessOptions {
  readonly natsUrl: string;
  readonly redisUrl: string;
  /** Host settings (JSON-serializable), passed as `TROUPE_HOST_SETTINGS`. */
  readonly settings?: Record<string, unknown>;
  /** Entry script relative to the repository root; default: the counter host. */
  readonly entry?: string;
  /** Extra environment variables. */
  readonly env?: Record<string, string>;
  /** How long to wait for the ready line, in ms (default 30 000). */
  readonly readyTimeoutMs?: number;
}

/** A host running as a real child process. */
export interface HostProcess {
  readonly hostId: string;
  readonly pid: number;
  readonly child: ChildProcess;
  /** Everything the host wrote to stderr so far. */
  readonly stderr: () => string;
  /** Everything the host wrote to stdout so far (its JSON log lines). */
  readonly stdout: () => string;
  /** Sends a signal (SIGKILL, SIGSTOP, SIGCONT, SIGTERM, …). */
  readonly signal: (signal: NodeJS.Signals) => void;
  /** Resolves with the exit code (or signal) when the process ends. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM, wait for exit (SIGKILL after `timeoutMs`, default 15 000). */
  readonly stop: (timeoutMs?: number) => Promise<void>;
}

/**
 * Starts an actor host as a child process (the entry's build in `dist/`, or its
 * TypeScript source through tsx: `harness/child-code.ts`) and waits until it
 * prints its ready line.
 *
 * @param options - server URLs, settings and entry.
 * @returns the running process.
 * @throws HostProcessExitedError (with exit code and output) when it exits before
 *   ready; Error with its stderr when it is not ready within `readyTimeoutMs`.
 */
export async function startHostProcess(options: HostProcessOptions): Promise<HostProcess> {
  const entry = options.entry ?? "test/src/fixtures/counter-host.ts";
  const child = spawn(process.execPath, nodeArgsFor(entry), {
    cwd: repositoryRoot,
    env: {
      ...process.env,
      TROUPE_NATS_URL: options.natsUrl,
      TROUPE_REDIS_URL: options.redisUrl,
      TROUPE_HOST_SETTINGS: JSON.stringify(options.settings ?? {}),
      TROUPE_LOG_LEVEL: process.env.TROUPE_LOG_LEVEL ?? "warn",
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
    if (stderr.length > 200_000) stderr = stderr.slice(-100_000);
  });
  const exited = once(child, "exit").then(([code, signal]) => ({
    code: code as number | null,
    signal: signal as NodeJS.Signals | null,
  }));
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  void exited.then(() => process.removeListener("exit", killOnExit));

  let stdout = "";
  const lines = createInterface({ input: child.stdout });
  lines.on("line", (line) => {
    stdout += `${line}\n`;
    if (stdout.length > 400_000) stdout = stdout.slice(-200_000);
  });
  const ready = new Promise<string>((resolve, reject) => {
    lines.on("line", (line) => {
      const ready = parseReadyLine(line);
      if (ready !== undefined) resolve(ready.hostId);
    });
    // "close" comes after "exit" once stdout and stderr are read to the end, so the
    // error carries everything the process wrote.
    void Promise.all([exited, once(child, "close")]).then(([{ code, signal }]) =>
      reject(new HostProcessExitedError(code, signal, stdout, stderr)),
    );
    setTimeout(
      () =>
        reject(
          new Error(`host not ready after ${options.readyTimeoutMs ?? 30_000} ms:\n${stderr}`),
        ),
      options.readyTimeoutMs ?? 30_000,
    ).unref();
  });
  let hostId: string;
  try {
    hostId = await ready;
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
  return {
    hostId,
    pid: child.pid ?? -1,
    child,
    stderr: () => stderr,
    stdout: () => stdout,
    signal: (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    },
    exited,
    stop: async (timeoutMs = 15_000) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGCONT");
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
      await exited;
      clearTimeout(timer);
    },
  };
}
