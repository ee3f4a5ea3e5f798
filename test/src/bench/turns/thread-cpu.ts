import { readdir, readFile } from "node:fs/promises";
import { processCpuReader, type CpuTimesMs } from "../process-cpu.js";

/**
 * The run time in ns from the text of a Linux `/proc/<pid>/task/<tid>/schedstat`
 * (`<run ns> <wait ns> <timeslices>`).
 *
 * @param text - the file's content.
 * @returns the first field in ns, or undefined when the text is not that layout.
 */
export function parseSchedstatRunNs(text: string): number | undefined {
  const fields = text.trim().split(/\s+/);
  if (fields.length !== 3 || !fields.every((field) => /^\d+$/.test(field))) return undefined;
  return Number(fields[0]);
}

async function threadRunMs(pid: number): Promise<number | undefined> {
  const tasks = await readdir(`/proc/${pid}/task`).catch(() => undefined);
  if (tasks === undefined || tasks.length === 0) return undefined;
  let totalNs = 0;
  for (const task of tasks) {
    const text = await readFile(`/proc/${pid}/task/${task}/schedstat`, "utf8").catch(
      () => undefined,
    );
    // A thread that ended between the listing and the read has no file any more.
    if (text === undefined) continue;
    const runNs = parseSchedstatRunNs(text);
    if (runNs === undefined) return undefined;
    totalNs += runNs;
  }
  return totalNs / 1e6;
}

/**
 * Like `processCpuReader` (`../process-cpu.ts`), but with nanosecond resolution
 * where Linux offers it: each other process's CPU time is the sum of its live
 * threads' run time from `/proc/<pid>/task/<tid>/schedstat`, so windows of a few
 * dozen turns are measured to well under the 10 ms ticks of `/proc/<pid>/stat`.
 * A process without schedstat falls back to `/proc/<pid>/stat`. A thread that
 * ends inside a window takes its time with it (an undercount); the servers and
 * the host keep their threads.
 *
 * @param others - label → pid, e.g. `{ host: 1234, "nats-server": 1200 }`.
 * @returns a reader of CPU ms by label; `node` is this (the benchmark's) process.
 */
export function threadCpuReader(
  others: Readonly<Record<string, number>>,
): () => Promise<CpuTimesMs> {
  const coarse = processCpuReader(others);
  return async () => {
    const times: Record<string, number> = { ...(await coarse()) };
    for (const [label, pid] of Object.entries(others)) {
      const precise = await threadRunMs(pid);
      if (precise !== undefined) times[label] = precise;
    }
    return times;
  };
}

/**
 * CPU ms used between two readings, by label (labels missing from either are left out).
 *
 * @param before - the earlier reading.
 * @param after - the later reading.
 * @returns `after - before` per label.
 */
export function cpuBetween(before: CpuTimesMs, after: CpuTimesMs): CpuTimesMs {
  const spent: Record<string, number> = {};
  for (const [label, value] of Object.entries(after)) {
    const start = before[label];
    if (start !== undefined) spent[label] = value - start;
  }
  return spent;
}
