import type { RefusedActorRecord } from "@troupe/runtime";

/** A host as the deployment's Redis knows it. */
export interface HostStatus {
  readonly hostId: string;
  /** In the membership set with an expiry still ahead of the Redis clock. */
  readonly alive: boolean;
  /**
   * Time since its last heartbeat in ms, derived from the stored expiry as
   * `membershipTtlMs − (expiry − now)`; undefined for a host that holds leases but
   * is not in the membership set (it left, or its entry was pruned).
   */
  readonly lastHeartbeatAgeMs: number | undefined;
  /** Shards whose lease it holds, ascending. */
  readonly shards: readonly number[];
  /**
   * Its Prometheus endpoint (`http://…/metrics`), for the hosts a
   * running `troupe dev` started (from its state file); absent otherwise.
   */
  readonly metricsUrl?: string;
}

/** One shard: its lease and how far its consumer is behind. */
export interface ShardStatus {
  readonly shard: number;
  /** Lease holder (host id); undefined when the shard is free. */
  readonly owner: string | undefined;
  /** Fencing token of the current lease; undefined when free. */
  readonly fencingToken: number | undefined;
  /** Lease time left in ms; undefined when free. */
  readonly leaseRemainingMs: number | undefined;
  /**
   * Inbox messages not yet done: `num_pending + num_ack_pending` of the shard's
   * durable consumer; for a shard that never had a consumer nor a watermark,
   * every retained message of the shard; undefined when unknown.
   */
  readonly inboxLag: number | undefined;
  /** Whether the shard's durable consumer (`<prefix>-shard-<n>`) exists. */
  readonly consumer: boolean;
  /** Inbox sequence a new owner would read from; undefined if never saved. */
  readonly watermark: number | undefined;
  /** Durable timers armed on the shard (its timer set). */
  readonly armedTimers: number;
  /** Actors with running effects or an unconfirmed outbox (its dirty set). */
  readonly dirtyActors: number;
}

/**
 * An actor a host refuses to process because it cannot read its snapshot's
 * machine version; its messages wait in the inbox (decision 0022).
 */
export interface RefusedActorStatus extends Omit<RefusedActorRecord, "expiresAtMs"> {
  /** `kind/id`. */
  readonly actor: string;
}

/** Message count of one stream; `messages` undefined when the stream does not exist. */
export interface StreamStatus {
  readonly name: string;
  readonly messages: number | undefined;
}

/**
 * The state of a deployment, as `troupe status` shows it. JSON-serializable.
 *
 * Shape: `{ prefix, shardCount, observedAtMs, hosts[], shards[], refusedActors[],
 * streams: { inbox, events, deltas, deadLetter, transcript }, totals }` (`deltas`: the transient
 * `run.delta` events, kept for the deltas retention).
 */
export interface ClusterStatus {
  readonly prefix: string;
  readonly shardCount: number;
  /** Redis clock when the data was read, Unix ms. */
  readonly observedAtMs: number;
  /** Hosts in the membership set or holding a lease, by id. */
  readonly hosts: readonly HostStatus[];
  /** Every shard, 0 to `shardCount − 1`. */
  readonly shards: readonly ShardStatus[];
  /** Actors refused for their machine version now, by actor (docs/decisions/0022). */
  readonly refusedActors: readonly RefusedActorStatus[];
  readonly streams: {
    readonly inbox: StreamStatus;
    readonly events: StreamStatus;
    readonly deltas: StreamStatus;
    readonly deadLetter: StreamStatus;
    readonly transcript: StreamStatus;
  };
  readonly totals: {
    readonly liveHosts: number;
    readonly ownedShards: number;
    readonly freeShards: number;
    /** Sum of the known `inboxLag`s. */
    readonly inboxLag: number;
    /** Shards whose lag is unknown (not in `inboxLag`). */
    readonly shardsWithUnknownLag: number;
    /** Messages in the dead-letter stream; undefined when it does not exist. */
    readonly deadLetters: number | undefined;
    /**
     * Of those, publishes under `troupe.` that matched no route (code
     * `unroutable_subject`); undefined when the stream does not exist.
     */
    readonly unroutableDeadLetters: number | undefined;
    readonly armedTimers: number;
    readonly dirtyActors: number;
    /** Actors refused for their machine version (docs/decisions/0022). */
    readonly refusedActors: number;
  };
}

/** Raw readings {@link assembleClusterStatus} combines. */
export interface ClusterReadings {
  readonly prefix: string;
  readonly shardCount: number;
  readonly observedAtMs: number;
  /** Membership TTL of the hosts in ms (their heartbeat expiry is `now + ttl`). */
  readonly membershipTtlMs: number;
  /** Membership set: host id → expiry (Unix ms, Redis clock). */
  readonly members: readonly { readonly hostId: string; readonly expiresAtMs: number }[];
  /** Per shard, in shard order. */
  readonly shards: readonly ShardStatus[];
  readonly streams: ClusterStatus["streams"];
  /** Dead letters on `_troupe.deadletter.unroutable`; undefined when unknown. */
  readonly unroutableDeadLetters?: number | undefined;
  /**
   * The hosts' refusal records (`<p>:refused`): actor → entry with its
   * `expiresAtMs`; entries at or past `observedAtMs` are stale and left out.
   */
  readonly refusedActors?: readonly (RefusedActorStatus & { readonly expiresAtMs: number })[];
}

/**
 * Combines raw readings into a {@link ClusterStatus}: hosts with the shards they
 * hold and the age of their last heartbeat, the refused actors whose record is
 * not stale, and totals. Pure.
 *
 * @param readings - membership, per-shard readings and stream counts.
 * @returns the status; hosts sorted by id.
 */
export function assembleClusterStatus(readings: ClusterReadings): ClusterStatus {
  const owned = new Map<string, number[]>();
  for (const shard of readings.shards) {
    if (shard.owner === undefined) continue;
    const list = owned.get(shard.owner) ?? [];
    list.push(shard.shard);
    owned.set(shard.owner, list);
  }
  const expiries = new Map(readings.members.map((member) => [member.hostId, member.expiresAtMs]));
  const hostIds = [...new Set([...expiries.keys(), ...owned.keys()])].sort();
  const hosts: HostStatus[] = hostIds.map((hostId) => {
    const expiresAtMs = expiries.get(hostId);
    return {
      hostId,
      alive: expiresAtMs !== undefined && expiresAtMs > readings.observedAtMs,
      lastHeartbeatAgeMs:
        expiresAtMs === undefined
          ? undefined
          : Math.max(0, readings.membershipTtlMs - (expiresAtMs - readings.observedAtMs)),
      shards: [...(owned.get(hostId) ?? [])].sort((a, b) => a - b),
    };
  });
  const known = readings.shards.filter((shard) => shard.inboxLag !== undefined);
  const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
  const ownedShards = readings.shards.filter((shard) => shard.owner !== undefined).length;
  const refusedActors: RefusedActorStatus[] = (readings.refusedActors ?? [])
    .filter((entry) => entry.expiresAtMs > readings.observedAtMs)
    .map(({ expiresAtMs: _stale, ...entry }) => entry)
    .sort((a, b) => (a.actor < b.actor ? -1 : a.actor > b.actor ? 1 : 0));
  return {
    prefix: readings.prefix,
    shardCount: readings.shardCount,
    observedAtMs: readings.observedAtMs,
    hosts,
    shards: readings.shards,
    refusedActors,
    streams: readings.streams,
    totals: {
      liveHosts: hosts.filter((host) => host.alive).length,
      ownedShards,
      freeShards: readings.shards.length - ownedShards,
      inboxLag: sum(known.map((shard) => shard.inboxLag ?? 0)),
      shardsWithUnknownLag: readings.shards.length - known.length,
      deadLetters: readings.streams.deadLetter.messages,
      unroutableDeadLetters: readings.unroutableDeadLetters,
      armedTimers: sum(readings.shards.map((shard) => shard.armedTimers)),
      dirtyActors: sum(readings.shards.map((shard) => shard.dirtyActors)),
      refusedActors: refusedActors.length,
    },
  };
}
