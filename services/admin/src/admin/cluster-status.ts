import { type ConsumerInfo, type JetStreamManager } from "@nats-io/jetstream";
import { RedisKeys, streamNames } from "@troupe/protocol/internal";
import { shardConsumerName } from "@troupe/runtime/internal";
import {
  UNROUTABLE_DEAD_LETTER_SUBJECT,
  assertShardCount,
  shardInboxFilter,
} from "@troupe/protocol";
import { countStoredMessages, isStreamNotFound } from "@troupe/client/internal";
import type { RedisConnection } from "@troupe/runtime";
import { DEFAULT_DEPLOYMENT_PREFIX, type AdminDeps } from "./admin-deps.js";
import {
  assembleClusterStatus,
  type ClusterReadings,
  type ClusterStatus,
  type ShardStatus,
  type StreamStatus,
} from "./assemble-cluster-status.js";
import { redisTimeMs } from "./redis-time-ms.js";

/** Options of {@link clusterStatus} besides {@link AdminDeps}. */
export interface ClusterStatusOptions {
  /**
   * Membership TTL the hosts run with, in ms; default 2000 (the host default).
   * Only the expiry of each heartbeat is stored, so the heartbeat age is derived
   * from it.
   */
  readonly membershipTtlMs?: number;
}

/**
 * Reads the state of a deployment: hosts (membership set `<p>:hosts`), each
 * shard's lease, watermark, timer and dirty sets, each shard consumer's backlog
 * (`jsm.consumers.list` on `<P>_INBOX`, consumers named `<prefix>-shard-<n>`)
 * and the message counts of the five streams, with the dead letters of publishes
 * that matched no route (`_troupe.deadletter.unroutable`), and the
 * actors hosts refuse for their machine version (`<p>:refused`).
 * Read-only.
 *
 * @param deps - Redis, JetStream manager, prefix (default `"troupe"`), shard
 *   count, and optionally the hosts' `membershipTtlMs` (default 2000 ms).
 * @returns the status, with totals.
 * @throws RangeError when `deps.shardCount` is not a whole number ≥ 1.
 * @example
 * const deployment = await readDeployment(redis);
 * console.log(formatClusterStatus(await clusterStatus({ redis, jsm, shardCount: deployment!.shardCount })));
 */
export async function clusterStatus(
  deps: AdminDeps & ClusterStatusOptions,
): Promise<ClusterStatus> {
  assertShardCount(deps.shardCount);
  const prefix = deps.prefix ?? DEFAULT_DEPLOYMENT_PREFIX;
  const keys = new RedisKeys(prefix, deps.shardCount);
  const names = streamNames(prefix);
  const [
    observedAtMs,
    members,
    redisShards,
    consumers,
    inbox,
    events,
    deltas,
    deadLetter,
    transcript,
    unroutableDeadLetters,
    refusedActors,
  ] = await Promise.all([
    redisTimeMs(deps.redis),
    readMembers(deps.redis, keys),
    readShards(deps.redis, keys, deps.shardCount),
    readShardConsumers(deps.jsm, names.inbox),
    streamStatus(deps.jsm, names.inbox),
    streamStatus(deps.jsm, names.events),
    streamStatus(deps.jsm, names.deltas),
    streamStatus(deps.jsm, names.deadLetter),
    streamStatus(deps.jsm, names.transcript),
    storedCount(deps.jsm, names.deadLetter, UNROUTABLE_DEAD_LETTER_SUBJECT),
    readRefusedActors(deps.redis, keys),
  ]);
  const shards: ShardStatus[] = await Promise.all(
    redisShards.map(async (shard) => {
      const consumer = consumers.get(shardConsumerName(prefix, shard.shard));
      let inboxLag: number | undefined;
      if (consumer !== undefined) inboxLag = consumer.num_pending + consumer.num_ack_pending;
      else if (shard.watermark === undefined && inbox.messages !== undefined)
        inboxLag = await retainedShardMessages(deps.jsm, names.inbox, shard.shard);
      return { ...shard, consumer: consumer !== undefined, inboxLag };
    }),
  );
  return assembleClusterStatus({
    prefix,
    shardCount: deps.shardCount,
    observedAtMs,
    membershipTtlMs: deps.membershipTtlMs ?? 2000,
    members,
    shards,
    streams: { inbox, events, deltas, deadLetter, transcript },
    unroutableDeadLetters,
    refusedActors,
  });
}

/** The hosts' refusal records (`<p>:refused`); unreadable entries are left out. */
async function readRefusedActors(
  redis: RedisConnection,
  keys: RedisKeys,
): Promise<NonNullable<ClusterReadings["refusedActors"]>> {
  const entries = await redis.hgetall(keys.refusedActors());
  return Object.entries(entries).flatMap(([actor, json]) => {
    try {
      const entry = JSON.parse(json) as Record<string, unknown>;
      const text = (key: string) => (typeof entry[key] === "string" ? entry[key] : "?");
      const number = (key: string) => (typeof entry[key] === "number" ? entry[key] : 0);
      return [
        {
          actor,
          hostId: text("hostId"),
          storedVersion: text("storedVersion"),
          hostVersion: text("hostVersion"),
          refusals: number("refusals"),
          waitingMessages: number("waitingMessages"),
          sinceMs: number("sinceMs"),
          expiresAtMs: number("expiresAtMs"),
        },
      ];
    } catch {
      return [];
    }
  });
}

async function readMembers(
  redis: RedisConnection,
  keys: RedisKeys,
): Promise<{ hostId: string; expiresAtMs: number }[]> {
  const reply = (await redis.zrange(keys.hosts(), "0", "-1", "WITHSCORES")) as unknown[];
  const members: { hostId: string; expiresAtMs: number }[] = [];
  // RESP2 replies interleave member and score; RESP3 replies pair them.
  if (reply.every((item) => Array.isArray(item))) {
    for (const [hostId, score] of reply as [string, string | number][])
      members.push({ hostId, expiresAtMs: Number(score) });
    return members;
  }
  for (let index = 0; index + 1 < reply.length; index += 2) {
    members.push({ hostId: String(reply[index]), expiresAtMs: Number(reply[index + 1]) });
  }
  return members;
}

type RedisShardReading = Omit<ShardStatus, "inboxLag" | "consumer">;

async function readShards(
  redis: RedisConnection,
  keys: RedisKeys,
  shardCount: number,
): Promise<RedisShardReading[]> {
  // One small pipeline per shard: a shard's keys share its hash tag, so each
  // pipeline stays in one hash slot (a Redis Cluster refuses one across slots).
  return Promise.all(
    Array.from({ length: shardCount }, async (_, shard): Promise<RedisShardReading> => {
      const replies =
        (await redis
          .pipeline()
          .hmget(keys.lease(shard), "owner", "token")
          .pttl(keys.lease(shard))
          .get(keys.watermark(shard))
          .zcard(keys.timers(shard))
          .scard(keys.dirty(shard))
          .exec()) ?? [];
      const reply = (index: number): unknown => {
        const [error, value] = replies[index] ?? [null, null];
        if (error !== null) throw error;
        return value;
      };
      const [owner, token] = (reply(0) ?? [null, null]) as [string | null, string | null];
      const ttlMs = reply(1) as number;
      const watermark = reply(2) as string | null;
      return {
        shard,
        owner: owner ?? undefined,
        fencingToken: token === null ? undefined : Number(token),
        leaseRemainingMs: owner !== null && ttlMs >= 0 ? ttlMs : undefined,
        watermark: watermark === null ? undefined : Number(watermark),
        armedTimers: reply(3) as number,
        dirtyActors: reply(4) as number,
      };
    }),
  );
}

async function readShardConsumers(
  jsm: JetStreamManager,
  stream: string,
): Promise<Map<string, ConsumerInfo>> {
  const consumers = new Map<string, ConsumerInfo>();
  try {
    for await (const info of jsm.consumers.list(stream)) consumers.set(info.name, info);
  } catch (error) {
    if (!isStreamNotFound(error)) throw error;
  }
  return consumers;
}

async function streamStatus(jsm: JetStreamManager, name: string): Promise<StreamStatus> {
  try {
    const info = await jsm.streams.info(name);
    return { name, messages: info.state.messages };
  } catch (error) {
    if (isStreamNotFound(error)) return { name, messages: undefined };
    throw error;
  }
}

/** Messages of a stream on `filter`; undefined when the stream does not exist. */
async function storedCount(
  jsm: JetStreamManager,
  stream: string,
  filter: string,
): Promise<number | undefined> {
  try {
    return await countStoredMessages(jsm, stream, filter);
  } catch (error) {
    if (isStreamNotFound(error)) return undefined;
    throw error;
  }
}

/** Messages of one shard still in the inbox stream (per-subject counts of its filter). */
async function retainedShardMessages(
  jsm: JetStreamManager,
  stream: string,
  shard: number,
): Promise<number | undefined> {
  try {
    return await countStoredMessages(jsm, stream, shardInboxFilter(shard));
  } catch (error) {
    if (isStreamNotFound(error)) return undefined;
    throw error;
  }
}
