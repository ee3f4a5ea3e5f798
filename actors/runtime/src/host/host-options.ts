import { DEFAULT_DEPLOYMENT_PREFIX, DEFAULT_SHARD_COUNT } from "@troupe/protocol";
import { z } from "zod";
import { DEFAULT_PRIORITY_PASS_OVER_LIMIT } from "./priority-scheduler.js";

/**
 * Settings of an actor host, with defaults. Every duration is in ms.
 *
 * Failover budget: a dead host's shards move once its leases lapse
 * (`leaseTtlMs`) and the survivors' next rebalance (`rebalanceIntervalMs`) claims
 * them; with the defaults that is about 2.3 s (the aim is ≤ 3 s).
 */
export const hostSettingsSchema = z.object({
  /** Unique id of this host process. */
  hostId: z
    .string()
    .min(1)
    .default(() => defaultHostId()),
  /** Prefix of Redis keys and JetStream stream names of the deployment. */
  prefix: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,32}$/)
    .default(DEFAULT_DEPLOYMENT_PREFIX),
  /** Shards per deployment; recorded on first start, refused if different later. */
  shardCount: z.number().int().min(1).max(4096).default(DEFAULT_SHARD_COUNT),
  /**
   * Added to the stream time of every message the host's machines process, in
   * ms (default 0). For simulations and tests only, e.g. a schedule whose
   * hosts were down for hours: the machines see that much more
   * time passed. A host with another value writes histories that do not
   * replay as recorded. Machines judge deadlines by stream time (decision 0050).
   */
  simulatedStreamTimeOffsetMs: z.number().int().default(0),
  /** Lease time to live. */
  leaseTtlMs: z.number().int().min(200).default(2000),
  /** Lease renewal period; well inside the TTL. */
  leaseRenewIntervalMs: z.number().int().min(20).default(500),
  /**
   * Where leases are renewed (decision 0047): `thread` (default) on
   * a worker thread with its own Redis connection, so synchronous work on the
   * event loop longer than `leaseTtlMs` does not cost the host its shards;
   * `main` on the event loop (a host with a `ManualClock` always renews there,
   * the thread reads the system clock).
   */
  leaseRenewal: z.enum(["thread", "main"]).default("thread"),
  /**
   * How long the renewal thread keeps the leases while the event loop is
   * blocked (no heartbeat from it); past it they lapse and other hosts take
   * the shards, as from a dead host.
   */
  maxEventLoopBlockMs: z.number().int().min(1000).default(30_000),
  /** A host missing heartbeats this long is considered gone (it heartbeats every `rebalanceIntervalMs`). */
  membershipTtlMs: z.number().int().min(100).default(2000),
  /** How often the host heartbeats its membership and compares its shards with its fair share. */
  rebalanceIntervalMs: z.number().int().min(20).default(250),
  /** JetStream AckWait of shard consumers (redelivery of an unacked message to the same owner). */
  ackWaitMs: z.number().int().min(1000).default(30_000),
  /**
   * Expiry of each shard consumer's pull request. The consumer sends an idle
   * heartbeat every half of it, and a client that misses two pulls again: so
   * when the consumer's leader is lost (a JetStream server died) a shard stalls
   * at most about this long after the new leader is elected, instead of
   * nats.js's default 30 000 ms (decision 0032). Lower costs one
   * more pull request per shard per expiry.
   */
  pullExpiresMs: z.number().int().min(1000).default(5_000),
  /** Messages delivered and not yet acked per shard. */
  maxAckPendingPerShard: z.number().int().min(1).default(1000),
  /**
   * Actors processing a message at the same time on this host; the ones waiting
   * start by scheduling class (docs/decisions/0057).
   */
  maxConcurrency: z.number().int().min(1).default(256),
  /**
   * Fairness of the scheduling classes (docs/decisions/0057): how many starts in
   * a row higher classes may take while a lower class waits, before the oldest
   * message of the waiting class goes next; 9 = a waiting class gets at least 1
   * start in 10.
   */
  priorityPassOverLimit: z.number().int().min(1).default(DEFAULT_PRIORITY_PASS_OVER_LIMIT),
  /** An actor idle this long is passivated (removed from memory). */
  passivateAfterMs: z.number().int().min(0).default(60_000),
  /** At most this many actors stay in memory; the least recently used idle ones go first. */
  maxActiveActors: z.number().int().min(1).default(10_000),
  /** Earlier snapshot generations kept besides the latest (without their outboxes). */
  keepGenerations: z.number().int().min(0).default(3),
  /**
   * How long the kept earlier generations outlive an actor's last commit (for
   * `troupe inspect` and replay checks of recent steps); 0 keeps them until
   * newer ones push them out. The default matches `passivateAfterMs`: an actor
   * idle long enough to leave memory costs its latest generation alone in Redis
   * (decision 0015); the journal still replays any generation.
   */
  historyRetentionMs: z.number().int().min(0).default(60_000),
  /** How long the inbox (the journal) keeps messages. */
  journalRetentionMs: z
    .number()
    .int()
    .min(1000)
    .default(7 * 24 * 3600 * 1000),
  /** How long events stay replayable. */
  eventRetentionMs: z
    .number()
    .int()
    .min(1000)
    .default(7 * 24 * 3600 * 1000),
  /**
   * How long the transient `run.delta` events (streamed model text) stay in the
   * deltas stream (`<P>_DELTAS`), so a client reconnecting mid-answer catches up;
   * the durable events stream does not hold them (docs/decisions/0014). A deployment
   * setting: the last host to start sets it.
   */
  deltaRetentionMs: z.number().int().min(1000).default(3_600_000),
  /** How long session transcripts are kept; 0 keeps them without an age limit. */
  transcriptRetentionMs: z.number().int().min(0).default(0),
  /**
   * Replicas of each of the deployment's JetStream streams (1–5, JetStream's
   * limit): 1 suits a single dev server; 3 is recommended in production, on a
   * JetStream cluster of at least 3 servers, so losing one server loses no
   * acknowledged message and pauses the streams only for the election of new
   * leaders (decision 0032). A new stream gets this value, 1 when it
   * is unset. When set, every host start also applies it to existing streams
   * (a stream update: the server adds or removes replicas); when unset, existing
   * streams keep theirs, so a host started without the setting never scales a
   * production deployment down. A deployment setting: the last host to start
   * with it sets it. `StreamSettingsRefusedError` when the servers refuse it
   * (e.g. more replicas than JetStream servers).
   */
  streamReplicas: z.number().int().min(1).max(5).optional(),
  /**
   * Where JetStream places the streams' replicas: a cluster name and/or server
   * tags (each replica on a server carrying every tag, from `server_tags` in its
   * config). Applied like `streamReplicas`: on creation, and on existing streams
   * when set (the servers then move the stream; nats-server 2.9 or later).
   * Unset: the servers choose (the cluster the host is connected to). Decision 0032.
   */
  streamPlacement: z
    .object({
      cluster: z.string().min(1).optional(),
      tags: z.array(z.string().min(1)).min(1).optional(),
    })
    .strict()
    .refine((placement) => placement.cluster !== undefined || placement.tags !== undefined, {
      message: "a stream placement names a cluster, tags or both",
    })
    .optional(),
  /**
   * How long the host's JetStream requests (creating and updating streams and
   * shard consumers, publish acks, the kinds' Object Store and KV requests)
   * wait for an answer. A JetStream cluster answers
   * after a consensus round among its servers (longer under load, or while a
   * leader is being elected), so the default is above nats.js's 5 000 ms
   * (decision 0032).
   */
  jetStreamApiTimeoutMs: z.number().int().min(1000).default(15_000),
  /** `Nats-Msg-Id` dedup window of the streams. */
  duplicateWindowMs: z.number().int().min(1000).default(120_000),
  /** How often due timers are looked up. */
  timerPollIntervalMs: z.number().int().min(10).default(100),
  /** Largest accepted message body in bytes (default 1 MiB). */
  maxPayloadBytes: z
    .number()
    .int()
    .min(1024)
    .default(1024 * 1024),
  /**
   * Graceful hand-over of a shard (rebalance or shutdown): how long to wait for its
   * in-flight messages and running effects to finish and deliver their results
   * before the lease is released; effects still running then are given up (the
   * next owner may report their calls as outcome unknown). Decision 0010.
   */
  drainTimeoutMs: z.number().int().min(0).default(10_000),
  /**
   * How long a host that (re)joins the membership — on start, or after its
   * membership record lapsed (a pause or a Redis outage longer than
   * `membershipTtlMs`, Redis restarted empty) — waits for the other hosts to
   * heartbeat before it acquires shards, so it never takes more than its fair
   * share of a membership it has not fully seen. Default: `membershipTtlMs`.
   * `ActorHost.start` resolves after it. Decision 0010.
   */
  membershipSettleMs: z.number().int().min(0).optional(),
  /**
   * Fault injection, for tests only. `dropFirstAck`: never ack a first delivery,
   * as if every ack were lost, so JetStream redelivers each message after
   * `ackWaitMs`.
   */
  testFaults: z
    .object({ dropFirstAck: z.boolean().default(false) })
    .default({ dropFirstAck: false }),
});

/** Host settings as given (every field optional). */
export type HostSettingsInput = z.input<typeof hostSettingsSchema>;
/** Host settings with defaults applied. */
export type HostSettings = z.infer<typeof hostSettingsSchema>;

/**
 * A fresh host id, `host-<pid>-<8 hex>`: the default of `hostId`. A process
 * that needs its id before the host starts (the CLI, for its telemetry
 * resource) makes one with this and passes it in.
 *
 * @returns e.g. `"host-4242-1f2e3d4c"`.
 */
export function defaultHostId(): string {
  return `host-${process.pid}-${crypto.randomUUID().slice(0, 8)}`;
}
