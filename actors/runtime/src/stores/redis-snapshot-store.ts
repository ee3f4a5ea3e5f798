import type { Redis } from "ioredis";
import { decodeActorRecord, encodeActorRecord, type ActorRecord } from "../step/actor-record.js";
import type { RedisKeys } from "@troupe/protocol/internal";
import { RedisScript } from "./redis-script.js";
import { parseTimerMember, timerChanges, timerMember } from "./timer-member.js";
import type {
  CommitInput,
  CommitOutcome,
  DueTimer,
  SnapshotStore,
  StoredRecord,
} from "./snapshot-store.js";

// KEYS: actor, history, lease, timers, dirty
// ARGV: token, expectedGen, nextGen, data, keep, address, dirty, removeCount, remove..., (score, member)...
const commitScript = new RedisScript(`
if redis.call('HGET', KEYS[3], 'token') ~= ARGV[1] then return -1 end
local gen = redis.call('HGET', KEYS[1], 'gen') or '0'
if gen ~= ARGV[2] then return -2 end
local previous = redis.call('HGET', KEYS[1], 'data')
local keep = tonumber(ARGV[5])
if previous and keep > 0 then
  redis.call('LPUSH', KEYS[2], previous)
  redis.call('LTRIM', KEYS[2], 0, keep - 1)
end
redis.call('HSET', KEYS[1], 'gen', ARGV[3], 'data', ARGV[4], 'confirmed', '0')
if ARGV[7] == '1' then redis.call('SADD', KEYS[5], ARGV[6]) else redis.call('SREM', KEYS[5], ARGV[6]) end
local removeCount = tonumber(ARGV[8])
for i = 1, removeCount do redis.call('ZREM', KEYS[4], ARGV[8 + i]) end
for i = 9 + removeCount, #ARGV, 2 do redis.call('ZADD', KEYS[4], ARGV[i], ARGV[i + 1]) end
return 1
`);

// KEYS: actor, dirty; ARGV: gen, address, stillDirty
const confirmScript = new RedisScript(`
if redis.call('HGET', KEYS[1], 'gen') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'confirmed', '1')
if ARGV[3] == '0' then redis.call('SREM', KEYS[2], ARGV[2]) end
return 1
`);

// KEYS: timer sets; ARGV: limit
const dueScript = new RedisScript(`
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local result = {}
for i, key in ipairs(KEYS) do
  result[i] = redis.call('ZRANGEBYSCORE', key, '-inf', now, 'LIMIT', 0, tonumber(ARGV[1]))
end
return result
`);

// KEYS: lease, watermark; ARGV: token, seq
const watermarkScript = new RedisScript(`
if redis.call('HGET', KEYS[1], 'token') ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[2], ARGV[2])
return 1
`);

/** {@link SnapshotStore} on Redis (see `RedisKeys` for the layout). */
export class RedisSnapshotStore implements SnapshotStore {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  async load(address: string): Promise<StoredRecord | undefined> {
    const [data, confirmed] = await this.redis.hmgetBuffer(
      this.keys.actor(address),
      "data",
      "confirmed",
    );
    if (data === null || data === undefined) return undefined;
    return { record: decodeActorRecord(data), outboxConfirmed: confirmed?.toString() === "1" };
  }

  async history(address: string): Promise<ActorRecord[]> {
    const items = await this.redis.lrangeBuffer(this.keys.history(address), 0, -1);
    return items.map((item) => decodeActorRecord(item));
  }

  async commit(input: CommitInput): Promise<CommitOutcome> {
    const { next, previous } = input;
    const { removed, added } = timerChanges(previous, next);
    const dirty = next.effects.length > 0 || next.outbox.length > 0;
    const reply = await commitScript.run(
      this.redis,
      [
        this.keys.actor(next.address),
        this.keys.history(next.address),
        this.keys.lease(input.shard),
        this.keys.timers(input.shard),
        this.keys.dirty(input.shard),
      ],
      [
        input.token,
        previous?.generation ?? 0,
        next.generation,
        encodeActorRecord(next),
        input.keepGenerations,
        next.address,
        dirty ? "1" : "0",
        removed.length,
        ...removed,
        ...added.flatMap(({ member, deadlineMs }) => [deadlineMs, member]),
      ],
    );
    if (reply === 1) return "committed";
    return reply === -1 ? "fenced" : "conflict";
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

  async dueTimers(shards: readonly number[], limit: number): Promise<DueTimer[]> {
    if (shards.length === 0) return [];
    const reply = (await dueScript.run(
      this.redis,
      shards.map((shard) => this.keys.timers(shard)),
      [limit],
    )) as string[][];
    return reply.flatMap((members, index) =>
      members.map((member) => parseTimerMember(shards[index] ?? -1, member)),
    );
  }

  async removeTimers(timers: readonly DueTimer[]): Promise<void> {
    if (timers.length === 0) return;
    const pipeline = this.redis.pipeline();
    for (const due of timers)
      pipeline.zrem(this.keys.timers(due.shard), timerMember(due.address, due.timer));
    await pipeline.exec();
  }

  async watermark(shard: number): Promise<number | undefined> {
    const value = await this.redis.get(this.keys.watermark(shard));
    return value === null ? undefined : Number(value);
  }

  async saveWatermark(shard: number, token: number, seq: number): Promise<boolean> {
    const reply = await watermarkScript.run(
      this.redis,
      [this.keys.lease(shard), this.keys.watermark(shard)],
      [token, seq],
    );
    return reply === 1;
  }
}
