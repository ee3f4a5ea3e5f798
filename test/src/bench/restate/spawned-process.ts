import { spawn } from "node:child_process";

/** How many of a process's last output lines are kept for error messages. */
const keptOutputLines = 40;

/** A child process of the Restate phase; see {@link spawnProcess}. */
export interface SpawnedProcess {
  readonly pid: number;
  /** Whether it has exited. */
  readonly hasExited: () => boolean;
  /** Settles once it has exited. */
  readonly exited: Promise<void>;
  /** Its last lines of stdout and stderr. */
  readonly outputTail: () => string;
  /** Calls `listener` with each line it writes to stdout. */
  readonly onStdoutLine: (listener: (line: string) => void) => void;
  /**
   * SIGTERM, SIGKILL after `graceMs`, and resolves once it has exited. Safe to call more than once.
   *
   * @param graceMs - wait between the two signals, in ms.
   */
  readonly stop: (graceMs: number) => Promise<void>;
}

/**
 * Spawns a child with piped output that is killed (SIGKILL) if this process
 * exits first, e.g. through the benchmark's time limit or `process.exit` after
 * Ctrl-C; its process group is this one's, so a terminal's Ctrl-C reaches it too.
 *
 * @param command - the executable's path.
 * @param args - its arguments.
 * @param options - working directory and environment (default: this process's).
 * @returns the process, once the operating system started it.
 * @throws the spawn error (e.g. `ENOENT`, `EACCES`).
 */
export async function spawnProcess(
  command: string,
  args: readonly string[],
  options: { readonly cwd: string; readonly env?: NodeJS.ProcessEnv },
): Promise<SpawnedProcess> {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  await new Promise<void>((resolve, reject) => {
    child.once("spawn", resolve);
    child.once("error", reject);
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error(`${command} started without a process id`);
  child.on("error", () => undefined);
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  let hasExited = false;
  const exited = new Promise<void>((resolve) =>
    child.once("exit", () => {
      hasExited = true;
      process.removeListener("exit", killOnExit);
      resolve();
    }),
  );
  const lines: string[] = [];
  const listeners: ((line: string) => void)[] = [];
  const keep = (stream: "stdout" | "stderr") => {
    let partial = "";
    return (chunk: Buffer) => {
      const parts = (partial + chunk.toString("utf8")).split("\n");
      partial = parts.pop() ?? "";
      for (const line of parts) {
        lines.push(line);
        if (stream === "stdout") for (const listener of listeners) listener(line);
      }
      if (lines.length > keptOutputLines) lines.splice(0, lines.length - keptOutputLines);
    };
  };
  child.stdout.on("data", keep("stdout"));
  child.stderr.on("data", keep("stderr"));
  return {
    pid,
    hasExited: () => hasExited,
    exited,
    outputTail: () => lines.join("\n"),
    onStdoutLine: (listener) => listeners.push(listener),
    stop: async (graceMs) => {
      if (hasExited) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}
