/**
 * Redis key layout of one deployment. Every key starts with the deployment's
 * prefix (default `troupe`), so several deployments or test suites can share a
 * server.
 *
 * | key | type | holds |
 * | --- | --- | --- |
 * | `<p>:deployment` | hash | `shardCount` |
 * | `<p>:hosts` | sorted set | host ids scored by membership expiry (Unix ms, Redis clock) |
 * | `<p>:lease:<shard>` | hash + TTL | `owner`, `token` |
 * | `<p>:fence:<shard>` | counter | last fencing token issued for the shard |
 * | `<p>:watermark:<shard>` | string | inbox sequence from which a new owner must read |
 * | `<p>:timers:<shard>` | sorted set | `<deadlineMs>|<address>|<timerId>` scored by deadline (ms) |
 * | `<p>:dirty:<shard>` | set | actors with running effects or an unconfirmed outbox |
 * | `<p>:actor:<kind>/<id>` | hash | `gen`, `data` (msgpack record), `confirmed` |
 * | `<p>:history:<kind>/<id>` | list | earlier generations, newest first |
 */
export class RedisKeys {
  constructor(readonly prefix: string) {}

  deployment(): string {
    return `${this.prefix}:deployment`;
  }
  hosts(): string {
    return `${this.prefix}:hosts`;
  }
  lease(shard: number): string {
    return `${this.prefix}:lease:${shard}`;
  }
  fence(shard: number): string {
    return `${this.prefix}:fence:${shard}`;
  }
  watermark(shard: number): string {
    return `${this.prefix}:watermark:${shard}`;
  }
  timers(shard: number): string {
    return `${this.prefix}:timers:${shard}`;
  }
  dirty(shard: number): string {
    return `${this.prefix}:dirty:${shard}`;
  }
  actor(address: string): string {
    return `${this.prefix}:actor:${address}`;
  }
  history(address: string): string {
    return `${this.prefix}:history:${address}`;
  }
}
