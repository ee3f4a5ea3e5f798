import { availableParallelism, cpus, loadavg } from "node:os";
import type { NatsConnection } from "@nats-io/transport-node";
import type { Redis } from "ioredis";

/** The machine and server versions a benchmark ran on. */
export interface MachineFacts {
  readonly cores: number;
  readonly cpuModel: string;
  readonly nodeVersion: string;
  readonly natsServerVersion: string;
  readonly redisVersion: string;
  /** 1-minute load average when the facts were taken (other work on the machine skews results). */
  readonly loadAverage1m: number;
}

/**
 * Reads the core count, CPU model and Node version from this process, the
 * nats-server version from the connection's server info and the Redis version
 * from `INFO server`.
 *
 * @param nats - a connection to the benchmark's NATS server.
 * @param redis - a client of the benchmark's Redis server.
 * @returns the facts.
 */
export async function collectMachineFacts(
  nats: NatsConnection,
  redis: Redis,
): Promise<MachineFacts> {
  const info = await redis.info("server");
  return {
    cores: availableParallelism(),
    cpuModel: cpus()[0]?.model.trim() ?? "unknown",
    nodeVersion: process.version,
    natsServerVersion: nats.info?.version ?? "unknown",
    redisVersion: /redis_version:(\S+)/.exec(info)?.[1] ?? "unknown",
    loadAverage1m: loadavg()[0] ?? 0,
  };
}

/**
 * The Markdown lines a report opens with: cores, Node, server versions and the
 * load average at start and end (the numbers are only as quiet as the machine).
 *
 * @param facts - collected at start, or undefined when the first phase failed.
 * @param loadAverageAtEnd1m - the 1-minute load average when the report is written.
 * @returns the lines, joined with newlines.
 */
export function machineFactLines(
  facts: MachineFacts | undefined,
  loadAverageAtEnd1m: number,
): string {
  if (facts === undefined) return "- machine: unknown (the first phase failed)";
  return [
    `- cores: ${facts.cores} (${facts.cpuModel})`,
    `- node: ${facts.nodeVersion}`,
    `- nats-server: ${facts.natsServerVersion}; redis: ${facts.redisVersion} (local binaries on loopback)`,
    `- load average (1 min): ${facts.loadAverage1m.toFixed(2)} at start, ${loadAverageAtEnd1m.toFixed(2)} at end`,
  ].join("\n");
}
