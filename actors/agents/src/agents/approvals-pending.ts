import { type MeterProvider, type ObservableResult, metrics } from "@opentelemetry/api";
import { APPROVAL_TIMER_ID } from "@troupe/machines";
import { METRICS, TELEMETRY_SCOPE } from "@troupe/protocol";
import type { RedisKeys } from "@troupe/protocol/internal";
import type { RedisConnection } from "@troupe/runtime";

/** Members a ZSCAN asks for per round trip. */
const SCAN_COUNT = 512;

/**
 * Counts the approvals pending in one deployment: the members of its shards'
 * timer sets (`<p>:{<shard>}:timers`, `<deadlineMs>|<address>|<timerId>`)
 * that are a tool call actor's approval timer ({@link APPROVAL_TIMER_ID}). A
 * tool call actor arms that timer in the commit that requests the approval and
 * removes it in the commit that settles it (approved, denied, timed out) or
 * cancels the call, so the count is exact whichever host owns the actor and
 * survives host restarts and hand-overs: it is durable state the runtime keeps
 * anyway (docs/decisions/0037).
 *
 * Cost: one `ZSCAN … MATCH` per shard (more for a shard with over
 * {@link SCAN_COUNT} timers), all at once; Redis walks each shard's timer set.
 *
 * @param redis - the deployment's Redis.
 * @param keys - its key layout (prefix and shard count).
 * @returns the number of tool calls waiting for an approval.
 * @throws the Redis client's error when Redis cannot be reached.
 */
export async function countPendingApprovals(
  redis: RedisConnection,
  keys: RedisKeys,
): Promise<number> {
  const pattern = `*|tool/*|${APPROVAL_TIMER_ID}`;
  const perShard = await Promise.all(
    Array.from({ length: keys.shardCount }, async (_, shard) => {
      // ZSCAN may return a member twice while the set is rehashed: count each once.
      const members = new Set<string>();
      let cursor = "0";
      do {
        const [next, page] = await redis.zscan(
          keys.timers(shard),
          cursor,
          "MATCH",
          pattern,
          "COUNT",
          SCAN_COUNT,
        );
        for (let i = 0; i < page.length; i += 2) members.add(page[i]!);
        cursor = next;
      } while (cursor !== "0");
      return members.size;
    }),
  );
  return perShard.reduce((sum, count) => sum + count, 0);
}

/** The deployments watched in this process, by key prefix, with the connections of their running hosts. */
const watched = new Map<string, { keys: RedisKeys; connections: RedisConnection[] }>();

/** The gauge of the meter provider it was made from (one per process and provider). */
let gauge: MeterProvider | undefined;

/**
 * Reports the count of every watched deployment, summed; nothing when one
 * cannot be counted. Connections closed for good (ioredis status `end`: a host
 * that crashed in a process that lives on, and whose connection was then
 * closed) are dropped first, and a deployment left with none is no longer
 * watched: otherwise one such deployment would blank the gauge of every other
 * for good (a crashed test deployment did, in CI).
 */
async function observe(result: ObservableResult): Promise<void> {
  for (const [prefix, entry] of watched) {
    for (let index = entry.connections.length - 1; index >= 0; index -= 1) {
      if (entry.connections[index]!.status === "end") entry.connections.splice(index, 1);
    }
    if (entry.connections.length === 0) watched.delete(prefix);
  }
  if (watched.size === 0) return;
  try {
    const counts = await Promise.all(
      [...watched.values()].map(({ keys, connections }) => countWithAny(connections, keys)),
    );
    result.observe(counts.reduce((sum, count) => sum + count, 0));
  } catch {
    // Redis unreachable: no value this time (a gap, not a false zero).
  }
}

/** How long a count may take, in ms, before the collection reports no value. */
const COUNT_TIMEOUT_MS = 5_000;

/**
 * The count through the first of `connections` that answers: a host that
 * stopped without calling `stop` (it crashed in a process that lives on)
 * leaves a closed or reconnecting connection in the list, which must neither
 * blank the gauge nor hold the collection (ioredis queues a command on a
 * reconnecting connection until it reconnects). Connections that are not
 * `ready` are skipped; the others are asked at once, the first answer counts,
 * and the whole count is given at most {@link COUNT_TIMEOUT_MS}, however many
 * connections hang (asked one after another, each connection that hung
 * added 5 s to a collection).
 */
async function countWithAny(connections: readonly RedisConnection[], keys: RedisKeys) {
  const ready = connections.filter((connection) => connection.status === "ready");
  if (ready.length === 0) throw new Error("no ready connection");
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      Promise.any(ready.map((connection) => countPendingApprovals(connection, keys))),
      new Promise<never>((_resolve, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no count within ${COUNT_TIMEOUT_MS} ms`)),
          COUNT_TIMEOUT_MS,
        );
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Makes the `troupe.approvals.pending` observable gauge report the approvals
 * pending of a host's deployment (see {@link countPendingApprovals}) whenever
 * the metrics SDK collects (a Prometheus scrape, an OTLP export). The gauge is
 * created once per process (again only if the global meter provider changed);
 * several hosts of one deployment in one process are counted once. Every host
 * reports the whole deployment's figure: aggregate hosts with `max`, not `sum`.
 * With no metrics SDK registered nothing is ever counted.
 *
 * @param redis - the host's Redis connection.
 * @param keys - the deployment's key layout.
 * @returns `stop`, which the host calls when it stops.
 */
export function watchPendingApprovals(
  redis: RedisConnection,
  keys: RedisKeys,
): { stop: () => void } {
  const provider = metrics.getMeterProvider();
  if (gauge !== provider) {
    gauge = provider;
    provider
      .getMeter(TELEMETRY_SCOPE)
      .createObservableGauge(METRICS.approvalsPending.name, {
        unit: METRICS.approvalsPending.unit,
        description:
          "Tool calls waiting for an approval in the deployment (every host reports the same figure).",
      })
      .addCallback(observe);
  }
  const entry = watched.get(keys.prefix) ?? { keys, connections: [] };
  entry.connections.push(redis);
  watched.set(keys.prefix, entry);
  let stopped = false;
  return {
    stop: () => {
      if (stopped) return;
      stopped = true;
      // Already dropped when it was found closed (see observe).
      const index = entry.connections.indexOf(redis);
      if (index >= 0) entry.connections.splice(index, 1);
      if (entry.connections.length === 0 && watched.get(keys.prefix) === entry) {
        watched.delete(keys.prefix);
      }
    },
  };
}

/**
 * What the gauge would count through now, for diagnostics (tests, support):
 * each watched deployment's prefix, shard count and the status of each of its
 * connections (`ready`, `reconnecting`, `end`, …), in the order they were
 * registered.
 */
export function pendingApprovalsWatches(): {
  readonly prefix: string;
  readonly shardCount: number;
  readonly connections: readonly string[];
}[] {
  return [...watched.entries()].map(([prefix, { keys, connections }]) => ({
    prefix,
    shardCount: keys.shardCount,
    connections: connections.map((connection) => connection.status),
  }));
}
