import { readFile } from "node:fs/promises";

/** CPU time used so far (user + system), in ms, by process label. */
export type CpuTimesMs = Readonly<Record<string, number>>;

/** Linux reports `/proc/<pid>/stat` times in ticks of 1/100 s (`USER_HZ`). */
const msPerTick = 10;

/**
 * Returns a reader of the CPU time used by this Node process and by other
 * processes (the servers), so a benchmark can say where the CPU of each message
 * went. Other processes are read from `/proc/<pid>/stat` (Linux; 10 ms
 * resolution); a process that cannot be read is left out.
 *
 * @param others - label → pid, e.g. `{ "nats-server": 1234 }`.
 * @returns a reader; `node` is this process (every thread, including its GC).
 */
export function processCpuReader(
  others: Readonly<Record<string, number>>,
): () => Promise<CpuTimesMs> {
  return async () => {
    const usage = process.cpuUsage();
    const times: Record<string, number> = { node: (usage.user + usage.system) / 1000 };
    for (const [label, pid] of Object.entries(others)) {
      const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => undefined);
      // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
      const fields = stat?.slice(stat.lastIndexOf(")") + 2).split(" ");
      const user = Number(fields?.[11]);
      const system = Number(fields?.[12]);
      if (Number.isFinite(user) && Number.isFinite(system))
        times[label] = (user + system) * msPerTick;
    }
    return times;
  };
}
