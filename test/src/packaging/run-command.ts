import { execFile } from "node:child_process";

/** Seconds since `startMs` (a `Date.now()`), to 0.1 s: the timings the packaging tests print. */
export const secondsSince = (startMs: number): number =>
  Math.round((Date.now() - startMs) / 100) / 10;

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
 * Runs a command to completion. The child gets {@link cleanEnvironment} of
 * `options.env`.
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
  const env = cleanEnvironment(options.env);
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      {
        cwd: options.cwd,
        env,
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

/** Variables a child in a user's project must not inherit from the test run. */
const NOT_INHERITED = new Set([
  "INIT_CWD",
  "NODE_OPTIONS",
  "TROUPE_NATS_URL",
  "TROUPE_REDIS_URL",
  "FORCE_COLOR",
]);

/**
 * This process's environment without npm's variables (an inherited
 * `npm_config_local_prefix` would install into the workspace), `NODE_OPTIONS`
 * (no loader or export condition reaches a plain `node`) and Troupe's URLs (a
 * command finds its servers as a user's would), plus `extra`.
 */
export function cleanEnvironment(
  extra: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const kept = Object.entries(process.env).filter(
    (entry): entry is [string, string] =>
      entry[1] !== undefined && !/^npm_/i.test(entry[0]) && !NOT_INHERITED.has(entry[0]),
  );
  return { ...Object.fromEntries(kept), ...extra };
}
