import type { CpuTimesMs } from "../process-cpu.js";

/** The processes whose CPU a turn costs: the host child and the two servers. */
export const turnCpuLabels = ["host", "nats-server", "redis-server"] as const;

/** CPU time per turn over a measured window, in ms. */
export interface CpuPerTurn {
  /** By process label: `host`, `nats-server`, `redis-server`, and `node` (the benchmark's client, not in the total). */
  readonly byLabelMs: CpuTimesMs;
  /**
   * The sum over the counted labels (host + nats-server + redis-server unless
   * other labels were given); undefined when one of them could not be read.
   */
  readonly totalMs: number | undefined;
}

/**
 * CPU per turn: each process's CPU time in the window divided by the turns in it.
 *
 * @param spentMs - CPU ms used in the window, by label (see `cpuBetween`).
 * @param turns - turns completed in the window (at least 1).
 * @param totalLabels - the labels summed into the total; default {@link turnCpuLabels}
 *   (the Restate side counts `restate-server` and its endpoint).
 * @returns per-label and total ms per turn.
 * @throws RangeError when `turns` is not a positive number.
 */
export function cpuPerTurn(
  spentMs: CpuTimesMs,
  turns: number,
  totalLabels: readonly string[] = turnCpuLabels,
): CpuPerTurn {
  if (!(turns > 0)) throw new RangeError(`turns must be positive, got ${turns}`);
  const byLabelMs: Record<string, number> = {};
  for (const [label, value] of Object.entries(spentMs)) byLabelMs[label] = value / turns;
  let totalMs: number | undefined = 0;
  for (const label of totalLabels) {
    const value = byLabelMs[label];
    totalMs = value === undefined || totalMs === undefined ? undefined : totalMs + value;
  }
  return { byLabelMs, totalMs };
}
