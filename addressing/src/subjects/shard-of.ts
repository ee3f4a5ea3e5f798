import { assertShardCount } from "./shard-number.js";

const FNV_OFFSET_BASIS = 2166136261;
const FNV_PRIME = 16777619;
const utf8 = new TextEncoder();

/**
 * FNV-1a, 32 bits, over `bytes` (http://www.isthe.com/chongo/tech/comp/fnv/).
 *
 * @param bytes - data to hash.
 * @returns the hash as an unsigned 32-bit integer.
 */
export function fnv1a32(bytes: Uint8Array): number {
  let hash = FNV_OFFSET_BASIS;
  for (const byte of bytes) {
    hash = Math.imul(hash ^ byte, FNV_PRIME);
  }
  return hash >>> 0;
}

/**
 * The shard an actor's inbox belongs to: the same number nats-server's subject
 * mapping function `{{partition(N,1,2)}}` writes into the shard inbox subject.
 *
 * That is FNV-1a 32-bit over the UTF-8 bytes of the kind token followed directly
 * by the id token (no separator), modulo `shardCount` (nats-server
 * `subjectTransform.getHashPartition`,
 * https://github.com/nats-io/nats-server/blob/main/server/subject_transform.go).
 *
 * The kind and id are not validated, so a host can place a message whose raw
 * subject tokens break the address rules (to dead-letter it).
 *
 * @param address - `{ kind, id }`, raw tokens.
 * @param shardCount - number of shards of the deployment, 1 to `MAX_SHARD_COUNT`.
 * @returns a shard number from 0 to `shardCount - 1`.
 * @throws RangeError when `shardCount` is not a whole number in range.
 *
 * @example
 * ```ts
 * const shard = shardOf({ kind: "session", id: "demo-1" }, 64);
 * shardInboxSubject(shard, { kind: "session", id: "demo-1" });
 * ```
 */
export function shardOf(
  address: { readonly kind: string; readonly id: string },
  shardCount: number,
): number {
  assertShardCount(shardCount);
  return fnv1a32(utf8.encode(address.kind + address.id)) % shardCount;
}
