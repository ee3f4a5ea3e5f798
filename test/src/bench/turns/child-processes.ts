import { readdir, readFile } from "node:fs/promises";

/** One process as Linux's `/proc/<pid>/stat` names it. */
export interface ProcessEntry {
  readonly pid: number;
  /** The `comm` field: the executable's name, at most 15 characters (e.g. `nats-server`). */
  readonly command: string;
  readonly parentPid: number;
}

/**
 * The pid, command and parent pid from the text of a Linux `/proc/<pid>/stat`
 * (`<pid> (<comm>) <state> <ppid> …`; `comm` may hold spaces and parentheses,
 * so it ends at the last `)`; see proc_pid_stat(5),
 * https://man7.org/linux/man-pages/man5/proc_pid_stat.5.html).
 *
 * @param text - the file's content.
 * @returns the entry, or undefined when the text is not that layout.
 */
export function parseProcStat(text: string): ProcessEntry | undefined {
  const open = text.indexOf("(");
  const close = text.lastIndexOf(")");
  if (open < 1 || close < open) return undefined;
  const pid = Number(text.slice(0, open).trim());
  const parentPid = Number(text.slice(close + 2).split(" ")[1]);
  if (!Number.isInteger(pid) || !Number.isInteger(parentPid)) return undefined;
  return { pid, command: text.slice(open + 1, close), parentPid };
}

/**
 * The live child processes of `parentPid`, read from `/proc` (Linux): every
 * `/proc/<pid>/stat` whose parent pid is `parentPid`. A process that ends
 * between the listing and the read is left out.
 *
 * @param parentPid - e.g. the pid of a `troupe dev` child process.
 * @returns its children, by ascending pid.
 */
export async function childProcesses(parentPid: number): Promise<ProcessEntry[]> {
  const pids = (await readdir("/proc")).filter((name) => /^\d+$/.test(name));
  const entries = await Promise.all(
    pids.map(async (pid) => {
      const text = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => undefined);
      return text === undefined ? undefined : parseProcStat(text);
    }),
  );
  return entries
    .filter((entry): entry is ProcessEntry => entry?.parentPid === parentPid)
    .sort((a, b) => a.pid - b.pid);
}
