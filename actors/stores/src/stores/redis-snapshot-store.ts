import { decodeActorRecord, type ActorRecord } from "@troupe/step/internal";
import { decodeStoredActorValue, encodeStoredActorValue } from "./stored-actor-value.js";
import type { RedisKeys } from "@troupe/protocol/internal";
import type { RedisConnection } from "./redis-connection.js";
import { RedisScript } from "./redis-script.js";
import { parseTimerMember, timerChanges, timerMember } from "./timer-member.js";
import type {
  CommitInput,
  CommitResult,
  DueTimer,
  LeaseGrant,
  SnapshotStore,
  StoredRecord,
  WatermarkOutcome,
} from "./snapshot-store.js";

// The actor's value: "<gen>:<confirmed>:<length>:" · record (length bytes) · outbox
// (see stored-actor-value.ts). The history holds record parts, newest first.
// KEYS: actor, history, lease, timers, dirty (one shard's hash tag)
// ARGV: owner, token, writesFloor, expectedGen, value, keep, historyRetentionMs, address,
//       dirty, removeCount, remove..., (score, member)...
// Returns the lease grant's commit count (≥ 1) when committed; -1 fenced (another
// grant: owner or token differ — a token alone can repeat after Redis lost writes);
// -3 the grant counts fewer commits than the owner made (Redis lost writes);
// -2 the stored generation moved.
const commitScript = new RedisScript(`
local lease = redis.call('HMGET', KEYS[3], 'owner', 'token', 'writes')
if lease[1] ~= ARGV[1] or lease[2] ~= ARGV[2] then return -1 end
local writes = tonumber(lease[3] or '0')
if writes < tonumber(ARGV[3]) then return -3 end
local gen, previous = '0', nil
-- A plain GET on the hot path; only a key still in the earlier layout
-- (a hash gen/data/confirmed) answers WRONGTYPE: its record goes to the history
-- as it was, and SET below replaces the hash with the string.
local value = redis.pcall('GET', KEYS[1])
if type(value) == 'table' and value.err then
  gen = redis.call('HGET', KEYS[1], 'gen') or '0'
  previous = redis.call('HGET', KEYS[1], 'data')
elseif value then
  local length, start
  gen, length, start = string.match(value, '^(%d+):[01]:(%d+):()')
  previous = string.sub(value, start, start + tonumber(length) - 1)
end
if gen ~= ARGV[4] then return -2 end
local keep = tonumber(ARGV[6])
if previous and keep > 0 then
  redis.call('LPUSH', KEYS[2], previous)
  redis.call('LTRIM', KEYS[2], 0, keep - 1)
  local retention = tonumber(ARGV[7])
  if retention > 0 then redis.call('PEXPIRE', KEYS[2], retention) end
end
redis.call('SET', KEYS[1], ARGV[5])
if ARGV[9] == '1' then redis.call('SADD', KEYS[5], ARGV[8]) else redis.call('SREM', KEYS[5], ARGV[8]) end
local removeCount = tonumber(ARGV[10])
for i = 1, removeCount do redis.call('ZREM', KEYS[4], ARGV[10 + i]) end
for i = 11 + removeCount, #ARGV, 2 do redis.call('ZADD', KEYS[4], ARGV[i], ARGV[i + 1]) end
return redis.call('HINCRBY', KEYS[3], 'writes', 1)
`);

// Marks the outbox published and cuts it off the value.
// KEYS: actor, dirty; ARGV: gen, address, stillDirty
const confirmScript = new RedisScript(`
local value = redis.pcall('GET', KEYS[1])
if type(value) == 'table' and value.err then
  -- Written in the earlier layout (a hash): confirmed in place, converted at the next commit.
  if redis.call('HGET', KEYS[1], 'gen') ~= ARGV[1] then return 0 end
  redis.call('HSET', KEYS[1], 'confirmed', '1')
  if ARGV[3] == '0' then redis.call('SREM', KEYS[2], ARGV[2]) end
  return 1
end
if not value then return 0 end
local gen, length, start = string.match(value, '^(%d+):[01]:(%d+):()')
if gen ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], gen .. ':1:' .. length .. ':' .. string.sub(value, start, start + tonumber(length) - 1))
if ARGV[3] == '0' then redis.call('SREM', KEYS[2], ARGV[2]) end
return 1
`);

// KEYS: one shard's timer set; ARGV: limit, aheadMs. Due by the Redis server's
// clock (plus aheadMs); members with their scores (member, score, member, score, …).
const dueScript = new RedisScript(`
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000) + tonumber(ARGV[2] or '0')
return redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'WITHSCORES', 'LIMIT', 0, tonumber(ARGV[1]))
`);

// KEYS: one shard's timer set; ARGV: member, score, member, score, … (score ""
// = whatever it is). Removes a fired member only while it still has the score
// it fired with: one re-armed since stays.
const removeFiredScript = new RedisScript(`
for i = 1, #ARGV, 2 do
  local score = redis.call('ZSCORE', KEYS[1], ARGV[i])
  if score and (ARGV[i + 1] == '' or tonumber(score) == tonumber(ARGV[i + 1])) then
    redis.call('ZREM', KEYS[1], ARGV[i])
  end
end
return 0
`);

// KEYS: lease, watermark; ARGV: owner, token, writesFloor, seq.
// Returns 1 saved, 0 fenced, -3 the grant counts fewer commits than the floor.
const watermarkScript = new RedisScript(`
local lease = redis.call('HMGET', KEYS[1], 'owner', 'token', 'writes')
if lease[1] ~= ARGV[1] or lease[2] ~= ARGV[2] then return 0 end
if tonumber(lease[3] or '0') < tonumber(ARGV[3]) then return -3 end
redis.call('SET', KEYS[2], ARGV[4])
return 1
`);

/**
 * {@link SnapshotStore} on Redis (see `RedisKeys` for the layout): an actor's
 * latest generation is one string (`stored-actor-value.ts`), its outbox cut
 * off once confirmed; earlier generations are a list of records without their
 * outboxes that expires `historyRetentionMs` after the last commit (docs/decisions/0015).
 */
export class RedisSnapshotStore implements SnapshotStore {
  /**
   * @param redis - the deployment's Redis (a server, a Sentinel-managed master or a Cluster).
   * @param keys - its key layout, with the deployment's shard count.
   */
  constructor(
    private readonly redis: RedisConnection,
    private readonly keys: RedisKeys,
  ) {}

  async load(address: string): Promise<StoredRecord | undefined> {
    const key = this.keys.actor(address);
    let value: Buffer | null;
    try {
      value = await this.redis.getBuffer(key);
    } catch (error) {
      if (!isWrongType(error)) throw error;
      // An actor written in the earlier layout (a hash); its next commit converts it.
      const [data, confirmed] = await this.redis.hmgetBuffer(key, "data", "confirmed");
      if (data === null || data === undefined) return undefined;
      return { record: decodeActorRecord(data), outboxConfirmed: confirmed?.toString() === "1" };
    }
    if (value === null) return undefined;
    const { record, confirmed } = decodeStoredActorValue(value);
    return { record, outboxConfirmed: confirmed };
  }

  async history(address: string): Promise<ActorRecord[]> {
    const items = await this.redis.lrangeBuffer(this.keys.history(address), 0, -1);
    return items.map((item) => decodeActorRecord(item));
  }

  async commit(input: CommitInput): Promise<CommitResult> {
    const { next, previous } = input;
    const { removed, added } = timerChanges(previous, next);
    const dirty = next.effects.length > 0 || next.outbox.length > 0;
    const reply = await commitScript.run(
      this.redis,
      [
        // In the shard's hash slot: the host commits an actor under the lease of
        // its shard, `shardOf(address)` (on a Redis Cluster another shard would
        // be refused with CROSSSLOT).
        this.keys.actor(next.address),
        this.keys.history(next.address),
        this.keys.lease(input.shard),
        this.keys.timers(input.shard),
        this.keys.dirty(input.shard),
      ],
      [
        input.owner,
        input.token,
        input.writesFloor ?? 0,
        previous?.generation ?? 0,
        encodeStoredActorValue(next),
        input.keepGenerations,
        input.historyRetentionMs ?? 0,
        next.address,
        dirty ? "1" : "0",
        removed.length,
        ...removed,
        ...added.flatMap(({ member, deadlineMs }) => [deadlineMs, member]),
      ],
    );
    const code = Number(reply);
    if (code >= 1) return { outcome: "committed", writes: code };
    if (code === -1) return { outcome: "fenced" };
    return { outcome: code === -3 ? "writes_lost" : "conflict" };
  }

  async confirmOutbox(shard: number, record: ActorRecord): Promise<void> {
    await confirmScript.run(
      this.redis,
      [this.keys.actor(record.address), this.keys.dirty(shard)],
      [record.generation, record.address, record.effects.length > 0 ? "1" : "0"],
    );
  }

  async dirtyActors(shard: number): Promise<string[]> {
    return this.redis.smembers(this.keys.dirty(shard));
  }

  async dueTimers(shards: readonly number[], limit: number, aheadMs = 0): Promise<DueTimer[]> {
    // One script per shard (each shard's timers are in its own hash slot).
    const replies = await Promise.all(
      shards.map(
        (shard) =>
          dueScript.run(this.redis, [this.keys.timers(shard)], [limit, aheadMs]) as Promise<
            string[]
          >,
      ),
    );
    return replies.flatMap((reply, index) => {
      const due: DueTimer[] = [];
      for (let at = 0; at + 1 < reply.length; at += 2) {
        const timer = parseTimerMember(shards[index] ?? -1, reply[at]!);
        due.push({ ...timer, dueAtMs: Number(reply[at + 1]) });
      }
      return due;
    });
  }

  async rearmTimer(due: DueTimer, dueAtMs: number): Promise<void> {
    await this.redis.zadd(
      this.keys.timers(due.shard),
      Math.round(dueAtMs),
      timerMember(due.address, due.timer),
    );
  }

  async removeTimers(timers: readonly DueTimer[]): Promise<void> {
    // One script per shard (each shard's timers are in its own hash slot).
    const byShard = new Map<number, (string | number)[]>();
    for (const due of timers) {
      const args = byShard.get(due.shard) ?? [];
      args.push(timerMember(due.address, due.timer), due.dueAtMs ?? "");
      byShard.set(due.shard, args);
    }
    await Promise.all(
      [...byShard].map(([shard, args]) =>
        removeFiredScript.run(this.redis, [this.keys.timers(shard)], args),
      ),
    );
  }

  async watermark(shard: number): Promise<number | undefined> {
    const value = await this.redis.get(this.keys.watermark(shard));
    return value === null ? undefined : Number(value);
  }

  async saveWatermark(shard: number, lease: LeaseGrant, seq: number): Promise<WatermarkOutcome> {
    const reply = await watermarkScript.run(
      this.redis,
      [this.keys.lease(shard), this.keys.watermark(shard)],
      [lease.owner, lease.token, lease.writesFloor ?? 0, seq],
    );
    return reply === 1 ? "saved" : reply === -3 ? "writes_lost" : "fenced";
  }
}

/** Redis's answer to a string read of a key of another type (`WRONGTYPE …`). */
function isWrongType(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith("WRONGTYPE");
}
