import type { LeaseHolder, LeaseRenewal, LeaseStore, ShardLease } from "./lease-store.js";
import type { RedisConnection } from "./redis-connection.js";
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
redis.call('HSET', KEYS[1], 'owner', ARGV[1], 'token', token, 'writes', 0)
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return token
`);

// KEYS: lease; ARGV: owner, ttlMs, token, writesFloor. One shard per call: the
// leases of different shards are in different hash slots.
// Returns 1 held, 0 lost, -3 held but fewer writes than the floor (lost writes).
// The lease renewal thread runs the same script on its own connection
// (lease-renewal-thread.ts, decision 0047).
export const RENEW_LEASE_LUA = `
local lease = redis.call('HMGET', KEYS[1], 'owner', 'token', 'writes')
if lease[1] ~= ARGV[1] or lease[2] ~= ARGV[3] then return 0 end
if tonumber(lease[3] or '0') < tonumber(ARGV[4]) then return -3 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`;
const renewScript = new RedisScript(RENEW_LEASE_LUA);

const releaseScript = new RedisScript(`
if redis.call('HGET', KEYS[1], 'owner') == ARGV[1] and redis.call('HGET', KEYS[1], 'token') == ARGV[2] then
  redis.call('DEL', KEYS[1])
  return 1
end
return 0
`);

/**
 * {@link LeaseStore} on Redis: one hash with a TTL per shard (`owner`, `token`,
 * `writes`), one counter per shard for tokens, both under the shard's hash tag;
 * every script touches one shard, so it runs on a Redis Cluster too (docs/decisions/0031).
 */
export class RedisLeaseStore implements LeaseStore {
  constructor(
    private readonly redis: RedisConnection,
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

  async renew(
    owner: string,
    leases: readonly ShardLease[],
    ttlMs: number,
  ): Promise<LeaseRenewal[]> {
    // One script per shard, sent together: ioredis writes them back to back
    // (pipelined on one connection, or on the node owning each slot).
    const replies = await Promise.all(
      leases.map((lease) =>
        renewScript.run(
          this.redis,
          [this.keys.lease(lease.shard)],
          [owner, ttlMs, lease.token, lease.writesFloor ?? 0],
        ),
      ),
    );
    return replies.map((reply) => (reply === 1 ? "held" : reply === -3 ? "writes_lost" : "lost"));
  }

  async release(shard: number, owner: string, token: number): Promise<boolean> {
    const reply = await releaseScript.run(this.redis, [this.keys.lease(shard)], [owner, token]);
    return reply === 1;
  }

  async holders(shardCount: number): Promise<LeaseHolder[]> {
    // Separate commands (not one pipeline): a Redis Cluster refuses a pipeline
    // across slots, and each shard has its own.
    return Promise.all(
      Array.from({ length: shardCount }, async (_, shard): Promise<LeaseHolder> => {
        const [[owner, token], ttl] = await Promise.all([
          this.redis.hmget(this.keys.lease(shard), "owner", "token"),
          this.redis.pttl(this.keys.lease(shard)),
        ]);
        return {
          shard,
          owner: owner ?? undefined,
          token: token === null || token === undefined ? undefined : Number(token),
          remainingMs: ttl >= 0 ? ttl : undefined,
        };
      }),
    );
  }
}
