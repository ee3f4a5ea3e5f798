/**
 * The largest shard count: shard numbers are an FNV-1a 32-bit hash modulo the
 * count, so more than 2^32 - 1 shards could never all be used.
 */
export const MAX_SHARD_COUNT = 0xffff_ffff;

/**
 * Throws unless `shardCount` is a whole number from 1 to {@link MAX_SHARD_COUNT}.
 *
 * @param shardCount - number of inbox shards of the deployment.
 * @throws RangeError naming the allowed range.
 */
export function assertShardCount(shardCount: number): void {
  if (!Number.isInteger(shardCount) || shardCount < 1 || shardCount > MAX_SHARD_COUNT) {
    throw new RangeError(
      `Invalid shard count ${String(shardCount)}: expected a whole number from 1 to ${MAX_SHARD_COUNT}.`,
    );
  }
}

/**
 * Throws unless `shard` is a whole number from 0 to `MAX_SHARD_COUNT - 1`.
 *
 * @param shard - a shard number.
 * @throws RangeError naming the allowed range.
 */
export function assertShard(shard: number): void {
  if (!Number.isInteger(shard) || shard < 0 || shard >= MAX_SHARD_COUNT) {
    throw new RangeError(
      `Invalid shard ${String(shard)}: expected a whole number from 0 to ${MAX_SHARD_COUNT - 1}.`,
    );
  }
}
