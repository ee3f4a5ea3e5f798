import { api } from "./api.js";
import { ErrorLine } from "./small-views.js";
import { usePoll } from "./use-poll.js";

interface ClusterStatus {
  prefix: string;
  shardCount: number;
  hosts: { hostId: string; alive: boolean; lastHeartbeatAgeMs?: number; shards: number[] }[];
  shards: {
    shard: number;
    owner?: string;
    fencingToken?: number;
    leaseRemainingMs?: number;
    inboxLag?: number;
    armedTimers: number;
    dirtyActors: number;
  }[];
  streams: Record<string, { name: string; messages?: number } | undefined>;
}

/** Hosts and shard ownership (GET /v1/console/cluster, every 2 s). */
export function ClusterPage() {
  const status = usePoll(() => api<ClusterStatus>("/v1/console/cluster"), 2000);
  const data = status.data;
  return (
    <section>
      <h1>Hosts &amp; shards</h1>
      <ErrorLine error={status.error} />
      {data !== undefined && (
        <>
          <p className="muted">
            Deployment <b>{data.prefix}</b>, {data.shardCount} shards.
          </p>
          <h2>Hosts</h2>
          <table data-testid="hosts">
            <thead>
              <tr>
                <th>Host</th>
                <th>Alive</th>
                <th>Heartbeat age</th>
                <th>Shards owned</th>
              </tr>
            </thead>
            <tbody>
              {data.hosts.map((host) => (
                <tr key={host.hostId}>
                  <td>{host.hostId}</td>
                  <td>{host.alive ? "yes" : "no"}</td>
                  <td>
                    {host.lastHeartbeatAgeMs === undefined ? "" : `${host.lastHeartbeatAgeMs} ms`}
                  </td>
                  <td>{host.shards.length}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <h2>Shard ownership</h2>
          <div className="shards">
            {data.shards.map((shard) => (
              <div
                key={shard.shard}
                className={`shard ${shard.owner === undefined ? "free" : ""}`}
                style={{ background: shard.owner === undefined ? undefined : colorOf(shard.owner) }}
                title={`shard ${shard.shard} · owner ${shard.owner ?? "none"} · fencing token ${shard.fencingToken ?? "-"} · lease ${shard.leaseRemainingMs ?? "-"} ms · inbox lag ${shard.inboxLag ?? "-"} · timers ${shard.armedTimers} · dirty ${shard.dirtyActors}`}
              >
                {shard.shard}
              </div>
            ))}
          </div>
          <h2>Streams</h2>
          <ul>
            {Object.entries(data.streams).map(([key, stream]) => (
              <li key={key}>
                {stream?.name ?? key}: {stream?.messages ?? "?"} messages
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function colorOf(owner: string): string {
  let hash = 0;
  for (const char of owner) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return `hsl(${hash % 360} 55% 78%)`;
}
