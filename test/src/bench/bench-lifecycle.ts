import {
  findLeftoverTestServers,
  removeLeftoverTestServers,
} from "../harness/find-leftover-test-servers.js";
import { ensureTestRunId, testRunMarker } from "../harness/test-run-marker.js";
import { testServersVariable } from "@troupe/testkit";
import { BenchResources } from "./bench-resources.js";

/** The run-wide parts of a benchmark entry; see {@link startBenchLifecycle}. */
export interface BenchLifecycle {
  readonly resources: BenchResources;
  /** `performance.now()` at start. */
  readonly startedAtMs: number;
  /** Writes `[  12.3 s] message` to stderr. */
  readonly progress: (message: string) => void;
  /**
   * Runs a phase; on an error records `<phase>: <first line>` in `errors`,
   * reports it and returns undefined.
   */
  readonly attempt: <T>(phase: string, task: () => Promise<T>) => Promise<T | undefined>;
  /** Errors recorded by {@link BenchLifecycle.attempt} (and pushed by the entry). */
  readonly errors: string[];
  /** Stops and removes servers of this run no longer tracked; says what was left, if anything. */
  readonly sweepLeftovers: () => Promise<string | undefined>;
  /** Ends the run: clears the time limit, exits with `exitCode` unless already exiting. */
  readonly finish: (exitCode: number) => void;
  /** Tears everything down and exits with `exitCode` (once). */
  readonly abort: (reason: string, exitCode: number) => Promise<void>;
  /**
   * Runs the entry's `run` to its end: `finish` with its exit code, or, when it
   * throws, the stack on stderr and `abort` with 1.
   */
  readonly runToEnd: (run: () => Promise<number>) => Promise<void>;
}

/**
 * Sets up a benchmark process: local test servers by default, a test run id (so
 * leftover servers can be found), warn-level host logs, a time limit after which
 * everything is torn down and the process exits with 1, and teardown on SIGINT
 * and SIGTERM.
 *
 * @param name - prefix of stderr messages, e.g. `bench`.
 * @param timeLimitMs - the whole run's limit, in ms.
 * @returns the lifecycle.
 */
export function startBenchLifecycle(name: string, timeLimitMs: number): BenchLifecycle {
  process.env.TROUPE_LOG_LEVEL ??= "warn";
  process.env[testServersVariable] ??= "local";
  ensureTestRunId();
  const resources = new BenchResources();
  const startedAtMs = performance.now();
  const errors: string[] = [];
  let exiting = false;

  const sweepLeftovers = async (): Promise<string | undefined> => {
    const leftovers = await findLeftoverTestServers(testRunMarker());
    if (leftovers.processes.length === 0 && leftovers.folders.length === 0) return undefined;
    await removeLeftoverTestServers(leftovers);
    return `teardown left ${leftovers.processes.length} servers and ${leftovers.folders.length} data folders (now removed)`;
  };
  const abort = async (reason: string, exitCode: number): Promise<void> => {
    if (exiting) return;
    exiting = true;
    process.stderr.write(`${name}: ${reason}; tearing down\n`);
    await Promise.race([
      resources.releaseAll().then(sweepLeftovers),
      new Promise((resolve) => setTimeout(resolve, 10_000)),
    ]);
    process.exit(exitCode);
  };
  const watchdog = setTimeout(
    () => void abort(`time limit of ${timeLimitMs} ms reached`, 1),
    timeLimitMs,
  );
  process.once("SIGINT", () => void abort("SIGINT", 130));
  process.once("SIGTERM", () => void abort("SIGTERM", 143));

  const progress = (message: string): void => {
    const seconds = ((performance.now() - startedAtMs) / 1000).toFixed(1).padStart(5);
    process.stderr.write(`[${seconds} s] ${message}\n`);
  };
  const finish = (exitCode: number): void => {
    clearTimeout(watchdog);
    // Hosts and clients may leave timers behind; do not wait for them.
    if (!exiting) process.exit(exitCode);
  };
  const runToEnd = async (run: () => Promise<number>): Promise<void> => {
    try {
      finish(await run());
    } catch (error) {
      process.stderr.write(
        `${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      await abort("error", 1);
    }
  };
  return {
    resources,
    startedAtMs,
    progress,
    errors,
    attempt: async <T>(phase: string, task: () => Promise<T>): Promise<T | undefined> => {
      try {
        return await task();
      } catch (error) {
        errors.push(
          `${phase}: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`,
        );
        progress(`${phase} failed: ${String(error)}`);
        return undefined;
      }
    },
    sweepLeftovers,
    finish,
    abort,
    runToEnd,
  };
}
