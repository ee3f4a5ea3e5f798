import { execFile } from "node:child_process";

/** Options of {@link runCommand}. */
export interface RunCommandOptions {
  /** Working directory. */
  readonly cwd: string;
  /** Kills the command (SIGKILL) after this many ms. */
  readonly timeoutMs: number;
  /** Variables added to the cleaned environment (see {@link runCommand}). */
  readonly env?: Readonly<Record<string, string>>;
}

/** What a finished command printed. */
export interface CommandOutput {
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs a command to completion. The child gets this process's environment
 * without the `npm_*` and `INIT_CWD` variables that `npx`/`npm run` set for
 * this repository (`npm_config_local_prefix` would make an `npm install` in
 * another folder install into the workspace) and without `NODE_OPTIONS` (no
 * loader or export condition reaches a plain `node`), plus `options.env`.
 *
 * @param command - the executable (`npm`, `node`, …), found on `PATH`.
 * @param args - its arguments.
 * @param options - folder, timeout in ms, extra environment.
 * @returns stdout and stderr.
 * @throws Error naming the command, its exit code or signal, stdout and stderr
 *   when it fails or outlives `timeoutMs`.
 */
export function runCommand(
  command: string,
  args: readonly string[],
  options: RunCommandOptions,
): Promise<CommandOutput> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !/^npm_/i.test(name) && name !== "INIT_CWD" && name !== "NODE_OPTIONS",
    ),
  );
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      {
        cwd: options.cwd,
        env: { ...env, ...options.env },
        timeout: options.timeoutMs,
        killSignal: "SIGKILL",
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        if (error === null) {
          resolve({ stdout, stderr });
          return;
        }
        const how = error.killed
          ? `was killed after ${options.timeoutMs} ms`
          : `exited with ${String(error.code ?? error.signal)}`;
        reject(
          new Error(
            `\`${command} ${args.join(" ")}\` in ${options.cwd} ${how}\n--- stdout\n${stdout}\n--- stderr\n${stderr}`,
            { cause: error },
          ),
        );
      },
    );
  });
}
