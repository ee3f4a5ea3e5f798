import { readFile } from "node:fs/promises";

/**
 * The resident set size in bytes from the text of a Linux `/proc/<pid>/status`
 * (its `VmRSS:   12345 kB` line).
 *
 * @param text - the file's content.
 * @returns bytes, or undefined when the line is missing.
 */
export function parseResidentBytes(text: string): number | undefined {
  const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(text);
  return match === null ? undefined : Number(match[1]) * 1024;
}

/**
 * The current resident set size of a process, in bytes (Linux only).
 *
 * @param pid - the process.
 * @returns bytes, or undefined where `/proc` cannot tell (another OS, the process ended).
 */
export async function readResidentBytes(pid: number): Promise<number | undefined> {
  const text = await readFile(`/proc/${pid}/status`, "utf8").catch(() => undefined);
  return text === undefined ? undefined : parseResidentBytes(text);
}

/**
 * Samples a process's resident set size every `intervalMs` until stopped.
 *
 * @param pid - the process.
 * @param intervalMs - sampling period, in ms.
 * @returns `stop()`, which gives the largest sample in bytes (undefined without any).
 */
export function sampleResidentPeak(
  pid: number,
  intervalMs: number,
): { stop: () => Promise<number | undefined> } {
  let peak: number | undefined;
  const sample = async () => {
    const bytes = await readResidentBytes(pid);
    if (bytes !== undefined) peak = Math.max(peak ?? 0, bytes);
  };
  void sample();
  const timer = setInterval(() => void sample(), intervalMs);
  return {
    stop: async () => {
      clearInterval(timer);
      await sample();
      return peak;
    },
  };
}
