import { execFile } from "node:child_process";
import { readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";

/** A server process still running after the tests. */
export interface LeftoverProcess {
  readonly pid: number;
  /** Its command line (Redis shows its rewritten process title). */
  readonly commandLine: string;
}

/** What the tests of one run left behind. */
export interface LeftoverTestServers {
  readonly processes: readonly LeftoverProcess[];
  /** Absolute paths of data folders still present in `os.tmpdir()`. */
  readonly folders: readonly string[];
}

/**
 * Finds `nats-server` / `redis-server` processes whose command line contains
 * `marker`, and folders in `os.tmpdir()` whose name starts with it. Test servers
 * carry the marker in their data folder's path, which is on their command line.
 *
 * @param marker - For example `troupe-test-1a2b3c4d-` (see `testRunMarker()`).
 * @returns The leftovers; both lists empty when the tests cleaned up.
 */
export async function findLeftoverTestServers(marker: string): Promise<LeftoverTestServers> {
  const processes = (await listProcesses()).filter(
    ({ pid, commandLine }) =>
      pid !== process.pid &&
      commandLine.includes(marker) &&
      /(nats-server|redis-server)/.test(commandLine),
  );
  const folders = (await readdir(tmpdir()))
    .filter((name) => name.startsWith(marker))
    .map((name) => join(tmpdir(), name));
  return { processes, folders };
}

/**
 * Kills leftover processes (SIGTERM, SIGKILL after `graceMs`) and removes leftover
 * folders, so that a failed check does not leave them for the next run.
 *
 * @param leftovers - From {@link findLeftoverTestServers}.
 * @param graceMs - Wait between SIGTERM and SIGKILL, in ms; default 2 000 ms.
 */
export async function removeLeftoverTestServers(
  leftovers: LeftoverTestServers,
  graceMs = 2_000,
): Promise<void> {
  for (const { pid } of leftovers.processes) signal(pid, "SIGTERM");
  await sleep(leftovers.processes.length === 0 ? 0 : graceMs);
  for (const { pid } of leftovers.processes) signal(pid, "SIGKILL");
  await Promise.all(
    leftovers.folders.map(async (folder) => await rm(folder, { recursive: true, force: true })),
  );
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone.
  }
}

async function listProcesses(): Promise<LeftoverProcess[]> {
  if (process.platform === "linux") return await listProcessesFromProc();
  const { stdout } = await promisify(execFile)("ps", ["-A", "-o", "pid=,args="]);
  return stdout
    .split("\n")
    .map((line) => /^\s*(\d+)\s+(.*)$/.exec(line))
    .filter((match) => match !== null)
    .map((match) => ({ pid: Number(match[1]), commandLine: match[2] ?? "" }));
}

async function listProcessesFromProc(): Promise<LeftoverProcess[]> {
  const pids = (await readdir("/proc")).filter((name) => /^\d+$/.test(name));
  const processes = await Promise.all(
    pids.map(async (pid) => {
      try {
        const raw = await readFile(`/proc/${pid}/cmdline`, "utf8");
        return { pid: Number(pid), commandLine: raw.replaceAll("\0", " ").trim() };
      } catch {
        return undefined; // exited meanwhile, or not ours to read
      }
    }),
  );
  return processes.filter((entry) => entry !== undefined);
}
