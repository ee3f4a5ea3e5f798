/**
 * The deployment's shard count and the state of a change of it, as recorded in
 * the `<p>:deployment` hash (docs/decisions/0035). Pure: parsing and
 * the host's decisions from it.
 *
 * Fields of the hash: `shardCount` (written on first start, then only by
 * `changeShardCount`), `resizeTo` (present while a change is under way: every
 * host releases its shards and acquires none), `resizeFrom`, and after a
 * change `resizeMarkerSeq` (the inbox sequence of the marker published once
 * nats-server maps with the new count) and `resizeCatchUpFrom` (the lowest
 * inbox sequence any old shard had not finished).
 */
export interface ShardCountState {
  /** Shards the deployment has now (`undefined` before any host started). */
  readonly shardCount: number | undefined;
  /** Target of a change under way; `undefined` when none is. */
  readonly resizeTo: number | undefined;
  /** Shard count before the change under way (or the last one). */
  readonly resizeFrom: number | undefined;
  /**
   * Inbox sequence S of the last completed change's marker: messages below it
   * were mapped with the old count, messages above it with the new one.
   */
  readonly markerSeq: number | undefined;
  /** Lowest inbox sequence W an old shard had not finished at the last change. */
  readonly catchUpFrom: number | undefined;
  /**
   * Every count the deployment had before the current one, oldest first
   * (`earlierShardCounts`, comma-separated): journal reads look for an actor's
   * older messages under these shard numbers too.
   */
  readonly earlierShardCounts: readonly number[];
}

/**
 * Reads the `<p>:deployment` hash (as `HGETALL` returns it).
 *
 * @param hash - field → value; `{}` when the key does not exist.
 * @returns the state; absent or malformed fields are `undefined`.
 */
export function readShardCountState(hash: Readonly<Record<string, string>>): ShardCountState {
  return {
    shardCount: positiveInteger(hash.shardCount),
    resizeTo: positiveInteger(hash.resizeTo),
    resizeFrom: positiveInteger(hash.resizeFrom),
    markerSeq: positiveInteger(hash.resizeMarkerSeq),
    catchUpFrom: positiveInteger(hash.resizeCatchUpFrom),
    earlierShardCounts: (hash.earlierShardCounts ?? "")
      .split(",")
      .map(positiveInteger)
      .filter((count) => count !== undefined),
  };
}

/**
 * Whether a running host with `ownShardCount` must hold no shard now: a change
 * of the shard count is under way, or the deployment's count is no longer the
 * host's (a host left over from before a change). Such a host drains and
 * releases every shard and acquires none; it goes on heartbeating.
 *
 * @param state - the recorded state.
 * @param ownShardCount - the host's `shardCount` setting.
 * @returns true to pause.
 */
export function mustHoldNoShard(state: ShardCountState, ownShardCount: number): boolean {
  if (state.resizeTo !== undefined) return true;
  return state.shardCount !== undefined && state.shardCount !== ownShardCount;
}

/**
 * The sequence at which a shard worker must first scan the whole inbox before
 * consuming its own subjects (pure): only after a change of the shard count,
 * while the shard's saved watermark has not passed the marker.
 *
 * @param watermark - the shard's saved watermark (0: none saved).
 * @param markerSeq - `ShardCountState.markerSeq`.
 * @returns the range `{ fromSeq, markerSeq }` to scan, or `undefined` (the usual start).
 */
export function catchUpRange(
  watermark: number,
  markerSeq: number | undefined,
): { fromSeq: number; markerSeq: number } | undefined {
  if (markerSeq === undefined || watermark <= 0 || watermark > markerSeq) return undefined;
  return { fromSeq: watermark, markerSeq };
}

function positiveInteger(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  return Number.isSafeInteger(parsed) && parsed > 0 ? parsed : undefined;
}
