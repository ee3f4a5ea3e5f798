import type { CpuTimesMs } from "../process-cpu.js";
import type { CpuPerTurn } from "./cpu-per-turn.js";

/** CPU label of the `troupe dev` process itself (its gateway, host log formatter and supervisor). */
export const devCpuLabel = "troupe dev";

/**
 * CPU label of a `troupe dev` host by its number from 1: `host`, `host 2`,
 * `host 3`, … (host 1 keeps the bare host's label).
 *
 * @param number - the host's number, from 1.
 * @returns the label.
 */
export function devHostCpuLabel(number: number): string {
  return number === 1 ? "host" : `host ${number}`;
}

/**
 * One `host` figure for all of `troupe dev`'s hosts: the labels of
 * {@link devHostCpuLabel} summed into `host`, other labels kept.
 *
 * @param times - CPU ms by label, e.g. `{ host: 10, "host 2": 5, "nats-server": 3 }`.
 * @returns e.g. `{ host: 15, "nats-server": 3 }`.
 */
export function sumHostCpu(times: CpuTimesMs): CpuTimesMs {
  const summed: Record<string, number> = {};
  for (const [label, value] of Object.entries(times)) {
    const key = /^host( \d+)?$/.test(label) ? "host" : label;
    summed[key] = (summed[key] ?? 0) + value;
  }
  return summed;
}

/**
 * CPU per turn of every process of `troupe dev`: its hosts, `nats-server`,
 * `redis-server` (`CpuPerTurn.totalMs`) and the `troupe dev` process itself.
 *
 * @param cpu - measured with a reader that has the {@link devCpuLabel} label.
 * @returns ms per turn, or undefined when a process could not be read.
 */
export function devCpuTotalMs(cpu: CpuPerTurn): number | undefined {
  const dev = cpu.byLabelMs[devCpuLabel];
  return cpu.totalMs === undefined || dev === undefined ? undefined : cpu.totalMs + dev;
}
