import type { ClusterStatus, ShardStatus } from "./assemble-cluster-status.js";
import { formatDurationMs } from "./format-duration-ms.js";
import { labelledLines, textTable } from "./text-table.js";

/**
 * Renders a {@link ClusterStatus} as plain text for `troupe status`: totals,
 * a table of hosts, a table of shards (owner, token, lease left, inbox lag,
 * watermark, timers, dirty actors) and the stream message counts (`-` for a missing stream). No colors.
 * A dead-letter count above 0 names `troupe deadletters`; actors a host refuses
 * for their machine version (docs/decisions/0022) get a line and a table.
 *
 * @param status - from `clusterStatus`.
 * @returns the text, lines joined with `\n`, no trailing newline.
 */
export function formatClusterStatus(status: ClusterStatus): string {
  const { totals } = status;
  const summary = labelledLines([
    ["deployment", `${status.prefix} (${status.shardCount} shards)`],
    ["hosts", `${totals.liveHosts} live of ${status.hosts.length} known`],
    ["shards", `${totals.ownedShards} owned, ${totals.freeShards} free`],
    [
      "inbox lag",
      `${totals.inboxLag} messages` +
        (totals.shardsWithUnknownLag > 0
          ? ` (+ ${totals.shardsWithUnknownLag} shards unknown)`
          : ""),
    ],
    [
      "dead letters",
      totals.deadLetters === undefined
        ? "- (no stream)"
        : String(totals.deadLetters) +
          (totals.unroutableDeadLetters === undefined || totals.unroutableDeadLetters === 0
            ? ""
            : ` (${totals.unroutableDeadLetters} unroutable subject` +
              `${totals.unroutableDeadLetters === 1 ? "" : "s"})`) +
          // Where to look, whenever there is something to see.
          (totals.deadLetters === 0 ? "" : " — troupe deadletters lists them"),
    ],
    ["timers", `${totals.armedTimers} armed`],
    ["dirty actors", String(totals.dirtyActors)],
    ...(totals.refusedActors === 0
      ? []
      : [
          [
            "refused actors",
            `${totals.refusedActors} — a host cannot read their snapshot's machine version; ` +
              "their messages wait: deploy a host that runs the stored version, or add a migration",
          ] as [string, string],
        ]),
  ]);
  const withMetrics = status.hosts.some((host) => host.metricsUrl !== undefined);
  const hosts =
    status.hosts.length === 0
      ? "no hosts"
      : textTable(
          [
            { heading: "host" },
            { heading: "state" },
            { heading: "heartbeat", align: "right" },
            { heading: "shards", align: "right" },
            { heading: "owned" },
            ...(withMetrics ? [{ heading: "metrics" }] : []),
          ],
          status.hosts.map((host) => [
            host.hostId,
            host.alive ? "live" : "gone",
            host.lastHeartbeatAgeMs === undefined
              ? "-"
              : `${formatDurationMs(host.lastHeartbeatAgeMs)} ago`,
            String(host.shards.length),
            formatShardRanges(host.shards),
            ...(withMetrics ? [host.metricsUrl ?? "-"] : []),
          ]),
        );
  const shards = textTable(
    [
      { heading: "shard", align: "right" },
      { heading: "owner" },
      { heading: "token", align: "right" },
      { heading: "lease left", align: "right" },
      { heading: "lag", align: "right" },
      { heading: "watermark", align: "right" },
      { heading: "timers", align: "right" },
      { heading: "dirty", align: "right" },
    ],
    status.shards.map(shardRow),
  );
  const streams = textTable(
    [{ heading: "stream" }, { heading: "messages", align: "right" }],
    Object.values(status.streams).map((stream) => [
      stream.name,
      stream.messages === undefined ? "-" : String(stream.messages),
    ]),
  );
  const refused =
    status.refusedActors.length === 0
      ? []
      : [
          textTable(
            [
              { heading: "refused actor" },
              { heading: "stored version" },
              { heading: "host version" },
              { heading: "host" },
              { heading: "waiting", align: "right" },
              { heading: "attempts", align: "right" },
            ],
            status.refusedActors.map((actor) => [
              actor.actor,
              actor.storedVersion,
              actor.hostVersion,
              actor.hostId,
              String(actor.waitingMessages),
              String(actor.refusals),
            ]),
          ),
        ];
  return [summary, hosts, ...refused, shards, streams].join("\n\n");
}

function shardRow(shard: ShardStatus): string[] {
  return [
    String(shard.shard),
    shard.owner ?? "(free)",
    shard.fencingToken === undefined ? "-" : String(shard.fencingToken),
    shard.leaseRemainingMs === undefined ? "-" : formatDurationMs(shard.leaseRemainingMs),
    shard.inboxLag === undefined ? "?" : String(shard.inboxLag),
    shard.watermark === undefined ? "-" : String(shard.watermark),
    String(shard.armedTimers),
    String(shard.dirtyActors),
  ];
}

/**
 * Shard numbers as compact ranges: `[0, 1, 2, 5, 7, 8]` → `0-2, 5, 7-8`.
 *
 * @param shards - shard numbers, ascending.
 * @returns the ranges; `-` when empty.
 */
export function formatShardRanges(shards: readonly number[]): string {
  if (shards.length === 0) return "-";
  const ranges: string[] = [];
  let start = shards[0] ?? 0;
  let previous = start;
  for (const shard of [...shards.slice(1), Number.NaN]) {
    if (shard === previous + 1) {
      previous = shard;
      continue;
    }
    ranges.push(start === previous ? String(start) : `${start}-${previous}`);
    start = shard;
    previous = shard;
  }
  return ranges.join(", ");
}
