import type { Redis } from "ioredis";
import type { LeaseHolder, LeaseStore, ShardLease } from "./lease-store.js";
import type { RedisKeys } from "@troupe/protocol/internal";
import { RedisScript } from "./redis-script.js";

const acquireScript = new RedisScript(`
local owner = redis.call('HGET', KEYS[1], 'owner')
if owner and owner ~= ARGV[1] then return false end
if owner == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return tonumber(redis.call('HGET', KEYS[1], 'token'))
end
local token = redis.call('INCR', KEYS[2])
redis.call('HSET', KEYS[1], 'owner', ARGV[1], 'token', token)
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return token
`);

const renewScript = new RedisScript(`
local result = {}
for i, key in ipairs(KEYS) do
  local owner = redis.call('HGET', key, 'owner')
  local token = redis.call('HGET', key, 'token')
  if owner == ARGV[1] and token == ARGV[i + 2] then
    redis.call('PEXPIRE', key, ARGV[2])
    result[i] = 1
  else
    result[i] = 0
  end
end
return result
`);

const releaseScript = new RedisScript(`
if redis.call('HGET', KEYS[1], 'owner') == ARGV[1] and redis.call('HGET', KEYS[1], 'token') == ARGV[2] then
  redis.call('DEL', KEYS[1])
  return 1
end
return 0
`);

/** {@link LeaseStore} on Redis: one hash with a TTL per shard, one counter per shard for tokens. */
export class RedisLeaseStore implements LeaseStore {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  async acquire(shard: number, owner: string, ttlMs: number): Promise<number | undefined> {
    const token = await acquireScript.run(
      this.redis,
      [this.keys.lease(shard), this.keys.fence(shard)],
      [owner, ttlMs],
    );
    return typeof token === "number" ? token : undefined;
  }

  async renew(owner: string, leases: readonly ShardLease[], ttlMs: number): Promise<boolean[]> {
    if (leases.length === 0) return [];
    const reply = (await renewScript.run(
      this.redis,
      leases.map((lease) => this.keys.lease(lease.shard)),
      [owner, ttlMs, ...leases.map((lease) => String(lease.token))],
    )) as number[];
    return reply.map((held) => held === 1);
  }

  async release(shard: number, owner: string, token: number): Promise<boolean> {
    const reply = await releaseScript.run(this.redis, [this.keys.lease(shard)], [owner, token]);
    return reply === 1;
  }

  async holders(shardCount: number): Promise<LeaseHolder[]> {
    const pipeline = this.redis.pipeline();
    for (let shard = 0; shard < shardCount; shard += 1) {
      pipeline.hmget(this.keys.lease(shard), "owner", "token");
      pipeline.pttl(this.keys.lease(shard));
    }
    const replies = (await pipeline.exec()) ?? [];
    const holders: LeaseHolder[] = [];
    for (let shard = 0; shard < shardCount; shard += 1) {
      const [owner, token] = (replies[shard * 2]?.[1] ?? [null, null]) as [
        string | null,
        string | null,
      ];
      const ttl = replies[shard * 2 + 1]?.[1] as number | undefined;
      holders.push({
        shard,
        owner: owner ?? undefined,
        token: token === null ? undefined : Number(token),
        remainingMs: ttl !== undefined && ttl >= 0 ? ttl : undefined,
      });
    }
    return holders;
  }
}
