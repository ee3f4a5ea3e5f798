/**
 * Name of the durable JetStream consumer that reads one shard's inbox:
 * `<prefix>-shard-<shard>` (re-created by each new lease holder).
 *
 * @param prefix - deployment prefix, e.g. `troupe`.
 * @param shard - shard number.
 */
export function shardConsumerName(prefix: string, shard: number): string {
  return `${prefix}-shard-${shard}`;
}
