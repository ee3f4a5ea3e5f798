import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { parseReadyLine, type ReadyLine } from "@troupe/host/internal";
import { guardChildProcess } from "../local-servers/child-process-guard.js";
import { HostStartError, parseErrorLine } from "./host-start-error.js";

/**
 * How to start a host process, without its flags: an executable and its first
 * arguments, e.g. `[process.execPath, "<path>/bin/troupe.mjs", "host"]` (what
 * `troupe dev` passes). The command must accept the flags of `troupe host`
 * (`--json` prints the ready line, `--check` checks the agent module).
 */
export type HostCommand = readonly [executable: string, ...args: string[]];

/** Options of {@link startDevHostProcess}. */
export interface DevHostProcessOptions {
  /** The host command; see {@link HostCommand}. */
  readonly command: HostCommand;
  /** Arguments after the host command. */
  readonly args: readonly string[];
  /** Extra environment of the child. */
  readonly env?: Readonly<Record<string, string>>;
  /** How long the host may take to report ready, in ms; default 60 000 ms. */
  readonly readyTimeoutMs?: number;
  /** Receives every line the host writes that is not its ready line. */
  readonly onOutput?: (line: string, stream: "stdout" | "stderr") => void;
}

/** A `troupe host` child process of `troupe dev`. */
export interface DevHostProcess {
  readonly pid: number;
  readonly hostId: string;
  /** Names of the agents the host serves. */
  readonly agents: readonly string[];
  /** The model each agent uses, by agent name, as the host reported it. */
  readonly models: Readonly<Record<string, string>>;
  /** The host's Prometheus endpoint, when it serves one (`--health-port`). */
  readonly metricsUrl?: string;
  /** Settles when the process has exited. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM (graceful drain), then SIGKILL after `timeoutMs`. */
  stop(timeoutMs: number): Promise<void>;
}

/**
 * Starts `troupe host --json …` as a child in its own process group (a
 * terminal's Ctrl-C reaches `troupe dev` only, which stops hosts before the
 * servers) and waits for its ready line `{"ready":true,"hostId":…}`. A watchdog
 * stops the child if this process dies.
 *
 * @throws HostStartError when the host exits or stays silent past
 *   `readyTimeoutMs`: the host's own error when it printed one, else its last output.
 */
export async function startDevHostProcess(options: DevHostProcessOptions): Promise<DevHostProcess> {
  const [executable, ...commandArgs] = options.command;
  const child: ChildProcess = spawn(executable, [...commandArgs, "--json", ...options.args], {
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
    env: { ...process.env, ...options.env },
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error("troupe host could not be started");
  child.on("error", () => undefined);
  const guard = guardChildProcess(child);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once("exit", (code, signal) => {
      guard.release();
      resolve({ code, signal });
    });
  });
  const tail: string[] = [];
  // Until it is ready, the host's lines are held back: if it fails, its error
  // is said once, by the thrown HostStartError; once ready, they
  // are passed on (startup warnings included).
  let held: { line: string; stream: "stdout" | "stderr" }[] | undefined = [];
  let reported: { code: string; message: string } | undefined;
  let onReady: ((line: ReadyLine) => void) | undefined;
  const ready = new Promise<ReadyLine>((resolve) => (onReady = resolve));
  const watch = (stream: NodeJS.ReadableStream, name: "stdout" | "stderr") => {
    createInterface({ input: stream }).on("line", (line) => {
      const readyLine = name === "stdout" ? parseReadyLine(line) : undefined;
      if (readyLine !== undefined) {
        onReady?.(readyLine);
        return;
      }
      if (name === "stdout") reported = parseErrorLine(line) ?? reported;
      tail.push(line);
      if (tail.length > 30) tail.shift();
      if (held === undefined) options.onOutput?.(line, name);
      else held.push({ line, stream: name });
    });
  };
  watch(child.stdout!, "stdout");
  watch(child.stderr!, "stderr");

  const readyTimeoutMs = options.readyTimeoutMs ?? 60_000;
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    ready.then((line) => ({ ready: line })),
    exited.then((exit) => ({ exit })),
    new Promise<{ timeout: true }>((resolve) => {
      timer = setTimeout(() => resolve({ timeout: true }), readyTimeoutMs);
    }),
  ]);
  clearTimeout(timer);
  if (!("ready" in outcome)) {
    child.kill("SIGKILL");
    const why =
      "exit" in outcome
        ? `exited (${outcome.exit.signal ?? `code ${outcome.exit.code}`})`
        : `did not report ready within ${readyTimeoutMs} ms`;
    throw new HostStartError(why, reported, tail);
  }
  const heldLines = held;
  held = undefined;
  for (const { line, stream } of heldLines) options.onOutput?.(line, stream);
  return {
    pid,
    hostId: outcome.ready.hostId,
    agents: outcome.ready.agents,
    models: outcome.ready.models ?? {},
    ...(outcome.ready.metricsUrl === undefined ? {} : { metricsUrl: outcome.ready.metricsUrl }),
    exited,
    async stop(timeoutMs) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const killTimer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
      await exited;
      clearTimeout(killTimer);
    },
  };
}
