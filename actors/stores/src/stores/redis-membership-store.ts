import type { RedisConnection } from "./redis-connection.js";
import type { MembershipHeartbeat, MembershipStore } from "./membership-store.js";
import { RedisKeys } from "@troupe/protocol/internal";
import { RedisScript } from "./redis-script.js";

// KEYS: hosts; ARGV: hostId, ttlMs. Scores use the Redis clock so hosts need no synchronized clocks.
// Returns {wasMember (1|0), host ids...}.
const heartbeatScript = new RedisScript(`
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local previous = redis.call('ZSCORE', KEYS[1], ARGV[1])
local wasMember = 0
if previous and tonumber(previous) > now then wasMember = 1 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local hosts = redis.call('ZRANGE', KEYS[1], 0, -1)
table.insert(hosts, 1, wasMember)
return hosts
`);

/** {@link MembershipStore} on Redis: a sorted set of host ids scored by expiry. */
export class RedisMembershipStore implements MembershipStore {
  constructor(
    private readonly redis: RedisConnection,
    private readonly keys: RedisKeys,
  ) {}

  async heartbeat(hostId: string, ttlMs: number): Promise<MembershipHeartbeat> {
    const [wasMember, ...hosts] = (await heartbeatScript.run(
      this.redis,
      [this.keys.hosts()],
      [hostId, ttlMs],
    )) as [number, ...string[]];
    return { hosts: hosts.sort(), wasMember: wasMember === 1 };
  }

  async leave(hostId: string): Promise<void> {
    await this.redis.zrem(this.keys.hosts(), hostId);
  }

  async claimShardCount(shardCount: number): Promise<number> {
    await this.redis.hsetnx(this.keys.deployment(), "shardCount", shardCount);
    return Number(await this.redis.hget(this.keys.deployment(), "shardCount"));
  }

  /**
   * Records key layout 2 (hash tags per shard) for the deployment, or
   * finds it recorded. A deployment without the mark whose Redis still has a
   * layout-1 fencing counter (`<p>:fence:<shard>`, made whenever a shard was
   * first owned) has data in the old layout.
   *
   * @param shardCount - the deployment's shard count (the shards to look at).
   * @returns the shards with layout-1 keys (empty: the deployment is on layout 2 now).
   */
  async claimKeyLayout(shardCount: number): Promise<number[]> {
    const deployment = this.keys.deployment();
    if ((await this.redis.hget(deployment, "keyLayout")) === String(RedisKeys.LAYOUT)) return [];
    const legacy = this.keys.legacy();
    const found = await Promise.all(
      Array.from({ length: shardCount }, (_, shard) => this.redis.exists(legacy.fence(shard))),
    );
    const legacyShards = found.flatMap((count, shard) => (count > 0 ? [shard] : []));
    if (legacyShards.length === 0) {
      await this.redis.hset(deployment, "keyLayout", RedisKeys.LAYOUT);
    }
    return legacyShards;
  }
}
