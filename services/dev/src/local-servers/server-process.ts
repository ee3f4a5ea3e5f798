import { spawn } from "node:child_process";
import { Socket } from "node:net";
import { guardChildProcess } from "./child-process-guard.js";

/** How many of a server's last output lines are kept for error messages. */
const keptOutputLines = 60;

/** How a server process ended. */
export interface ServerProcessExit {
  /** Exit code, or `null` when a signal ended the process. */
  readonly code: number | null;
  /** The signal that ended the process, or `null`. */
  readonly signal: NodeJS.Signals | null;
}

/** A running server child process: see {@link spawnServerProcess}. */
export interface ServerProcess {
  /** Operating-system process id. */
  readonly pid: number;
  /** Settles once the process has exited and been reaped. */
  readonly exited: Promise<ServerProcessExit>;
  /** Whether the process has exited. */
  hasExited(): boolean;
  /** The last lines the process wrote to stdout and stderr. */
  outputTail(): string;
  /**
   * Sends SIGTERM, then SIGKILL if the process is still running after `timeoutMs`,
   * and resolves once it has exited. Safe to call more than once.
   *
   * @param timeoutMs - Grace period between SIGTERM and SIGKILL, in ms.
   */
  stop(timeoutMs: number): Promise<void>;
}

/** Options of {@link spawnServerProcess}. */
export interface SpawnServerProcessOptions {
  /** Absolute path of the executable. */
  readonly binary: string;
  /** Command-line arguments. */
  readonly args: readonly string[];
  /** Working directory of the child. */
  readonly cwd: string;
  /**
   * Run the child in its own process group, so a terminal's Ctrl-C (SIGINT to
   * the foreground group) does not reach it; default `false`. The watchdog
   * still stops it when this process dies.
   */
  readonly detached?: boolean | undefined;
}

/**
 * Spawns a server as a guarded, non-detached child (see {@link guardChildProcess})
 * that captures its output and does not keep this process alive by itself.
 *
 * @param options - See {@link SpawnServerProcessOptions}.
 * @returns The running process, once the operating system has started it.
 * @throws The spawn error (for example `EACCES`) when the binary cannot be started.
 */
export async function spawnServerProcess(
  options: SpawnServerProcessOptions,
): Promise<ServerProcess> {
  const child = spawn(options.binary, options.args, {
    cwd: options.cwd,
    stdio: ["ignore", "pipe", "pipe"],
    detached: options.detached ?? false,
  });
  await new Promise<void>((resolve, reject) => {
    child.once("spawn", resolve);
    child.once("error", reject);
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error(`${options.binary} started without a process id`);
  // A signal that cannot be delivered is reported as an "error" event; the exit
  // (or its absence) is what matters here, so keep it from crashing the process.
  child.on("error", () => undefined);

  const guard = guardChildProcess(child);
  const lines: string[] = [];
  const keep = (chunk: Buffer): void => {
    lines.push(
      ...chunk
        .toString("utf8")
        .split("\n")
        .filter((line) => line !== ""),
    );
    if (lines.length > keptOutputLines) lines.splice(0, lines.length - keptOutputLines);
  };
  for (const stream of [child.stdout, child.stderr]) {
    stream?.on("data", keep);
    if (stream instanceof Socket) stream.unref();
  }
  child.unref();

  let hasExited = false;
  const exited = new Promise<ServerProcessExit>((resolve) => {
    child.once("exit", (code, signal) => {
      hasExited = true;
      guard.release();
      resolve({ code, signal });
    });
  });

  return {
    pid,
    exited,
    hasExited: () => hasExited,
    outputTail: () => lines.join("\n"),
    async stop(timeoutMs) {
      if (hasExited) return;
      child.kill("SIGTERM");
      const killTimer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
      try {
        await exited;
      } finally {
        clearTimeout(killTimer);
      }
    },
  };
}
