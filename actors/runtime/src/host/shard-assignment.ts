/**
 * Which host should own which shard, computed the same way by every host from the
 * same membership list (pure).
 *
 * Each shard ranks the hosts by a hash of (shard, host) — rendezvous hashing, so
 * a membership change moves few shards — and goes to the best-ranked host that is
 * still under its quota. Quotas are `floor(S / H)` or one more, so every host owns
 * a fair share, within one shard of `S / H`.
 *
 * @param shardCount - number of shards S.
 * @param hosts - live host ids (any order).
 * @returns owner host id per shard index (empty when there are no hosts).
 */
export function assignShards(shardCount: number, hosts: readonly string[]): string[] {
  const sorted = [...new Set(hosts)].sort();
  if (sorted.length === 0) return [];
  const base = Math.floor(shardCount / sorted.length);
  const extra = shardCount % sorted.length;
  // The hosts that get one extra shard are chosen by rank too, so the choice is stable.
  const quota = new Map(
    sorted
      .map((host) => ({ host, rank: score(-1, host) }))
      .sort((a, b) => a.rank - b.rank || a.host.localeCompare(b.host))
      .map(({ host }, index) => [host, base + (index < extra ? 1 : 0)] as const),
  );
  const owners: string[] = [];
  for (let shard = 0; shard < shardCount; shard += 1) {
    const ranked = sorted
      .map((host) => ({ host, rank: score(shard, host) }))
      .sort((a, b) => a.rank - b.rank || a.host.localeCompare(b.host));
    const chosen = ranked.find(({ host }) => (quota.get(host) ?? 0) > 0) ?? ranked[0];
    if (chosen === undefined) continue;
    quota.set(chosen.host, (quota.get(chosen.host) ?? 0) - 1);
    owners.push(chosen.host);
  }
  return owners;
}

function score(shard: number, host: string): number {
  // FNV-1a 32-bit over "<shard>:<host>".
  let hash = 2166136261;
  const text = `${shard}:${host}`;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 16777619);
  }
  return hash >>> 0;
}
