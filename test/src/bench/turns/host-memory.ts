import type { NatsConnection } from "@nats-io/transport-node";

/**
 * The memory of a bench agent host (`test/src/fixtures/bench-agent-host.ts`),
 * as it answers on `TROUPE_BENCH_MEMORY_SUBJECT`: `process.memoryUsage()` after
 * two full garbage collections (when `collected`), in bytes, and its active
 * actor count (`ActorHost.activeActorCount`).
 */
export interface HostMemoryReport {
  /** Whether `global.gc` ran first (the host was started with `--expose-gc`). */
  readonly collected: boolean;
  readonly heapUsedBytes: number;
  readonly heapTotalBytes: number;
  readonly rssBytes: number;
  readonly externalBytes: number;
  readonly arrayBuffersBytes: number;
  readonly activeActors: number;
}

/**
 * The subject a bench host answers memory requests on.
 *
 * @param name - a NATS-token-safe name unique to the host, e.g. `"many-sessions"`.
 * @returns e.g. `"bench.host.many-sessions.memory"` (outside `troupe.` and `_troupe.`).
 */
export function hostMemorySubject(name: string): string {
  return `bench.host.${name}.memory`;
}

/**
 * Asks a bench host for its memory.
 *
 * @param nats - a connection to the deployment's server.
 * @param subject - from {@link hostMemorySubject}.
 * @param timeoutMs - longest wait, in ms (default 15 000: a full GC of a large heap takes a while).
 * @returns the report.
 * @throws nats.js errors when nobody answers in time.
 */
export async function readHostMemory(
  nats: NatsConnection,
  subject: string,
  timeoutMs = 15_000,
): Promise<HostMemoryReport> {
  const reply = await nats.request(subject, undefined, { timeout: timeoutMs });
  return reply.json<HostMemoryReport>();
}
