import { setTimeout as sleep } from "node:timers/promises";
import { jetstream, jetstreamManager } from "@nats-io/jetstream";
import type { NatsConnection } from "@nats-io/transport-node";
import {
  MAX_SHARD_COUNT,
  TroupeError,
  parseShardInboxSubject,
  shardInboxFilter,
  shardOf,
  streamNames,
} from "@troupe/protocol";
import { RedisKeys } from "@troupe/protocol/internal";
import type { Redis } from "ioredis";
import { ShardCountChangingError } from "@troupe/step";
import {
  RedisLeaseStore,
  moveActorKeys,
  RedisSnapshotStore,
  parseTimerMember,
} from "@troupe/stores/internal";
import { SHARD_COUNT_MARKER_KIND } from "./shard-catch-up.js";
import { readShardCountState } from "./shard-count-state.js";

/** Steps of {@link changeShardCount}, in order, as reported to `onStep`. */
export type ShardCountChangeStep =
  "pausing" | "paused" | "waiting_for_mapping" | "marker_published" | "moved_shard_data" | "done";

/** How to run {@link changeShardCount}. */
export interface ChangeShardCountOptions {
  /** An open NATS connection to the deployment's server. */
  readonly nats: NatsConnection;
  /** An open Redis client (one server or a Sentinel master). */
  readonly redis: Redis;
  /** Deployment prefix; default `troupe`. */
  readonly prefix?: string;
  /** The new shard count: above the current one, at most 4096. */
  readonly to: number;
  /**
   * Called once every shard is paused (no host holds any): must make
   * nats-server map `troupe.*.*.in` with the new count (rewrite the mapping
   * with `renderNatsServerConfig` / `inboxSubjectMapping(to)` and send SIGHUP
   * to every server). May also return at once and leave it to an operator:
   * the change waits until a probe publish shows the new mapping
   * (`mappingTimeoutMs`).
   */
  readonly reload?: () => Promise<void>;
  /** Reports each step (for the CLI's progress lines). */
  readonly onStep?: (step: ShardCountChangeStep, details: Record<string, unknown>) => void;
  /** Longest wait for the hosts to release every shard, ms; default 60 000. */
  readonly pauseTimeoutMs?: number;
  /** Longest wait for the new mapping, ms; default 600 000. */
  readonly mappingTimeoutMs?: number;
  /**
   * Wait between seeing the new mapping and publishing the marker, ms (default
   * 1 000): a publish the server read just before its reload is stored by then.
   */
  readonly settleMs?: number;
  /** TTL of the leases the change holds, ms; default 2 000 (the hosts' default). */
  readonly leaseTtlMs?: number;
}

/** What {@link changeShardCount} did. */
export interface ShardCountChange {
  readonly from: number;
  readonly to: number;
  /** Inbox sequence S of the marker (first message mapped with `to` follows it). */
  readonly markerSeq: number;
  /** Lowest inbox sequence W an old shard had not finished: new shards scan from it. */
  readonly catchUpFrom: number;
  /** Durable timers moved to the timer set of their new shard. */
  readonly movedTimers: number;
  /** Dirty-set members moved to their new shard. */
  readonly movedDirtyActors: number;
  /** Actor keys (latest generations, histories) moved to their new shard's hash tag (decision 0031). */
  readonly movedActorKeys: number;
}

/**
 * Raises the shard count of a live deployment without losing or reordering any
 * actor's messages (docs/decisions/0035). Publishing never stops;
 * processing pauses from the hosts' release to the new hosts' start.
 *
 * 1. Records `resizeTo` in `<p>:deployment`: every host drains and releases its
 *    shards and acquires none (it reads the record each rebalance); hosts
 *    started meanwhile refuse (`ShardCountChangingError`).
 * 2. Takes the lease of every shard, old and new, under its own owner id and
 *    renews them until the end, so no host can write meanwhile (a host that
 *    read the record just before it was written is fenced by the token).
 * 3. Calls `reload`, then publishes probes until the server maps with the new
 *    count; waits `settleMs`; publishes the marker (sequence S).
 * 4. W = the lowest sequence below S of a message an old shard had not
 *    finished (its saved watermark, then the next message on its subjects).
 * 5. Moves durable timers and dirty-set members to their new shard, sets every
 *    new shard's watermark to W, and records `shardCount = to`,
 *    `resizeMarkerSeq = S`, `resizeCatchUpFrom = W`, appends N to
 *    `earlierShardCounts` (for journal reads) and removes `resizeTo`.
 * 6. Releases the leases. Hosts started with `shardCount = to` take the shards;
 *    each first reads the inbox from W to S for its own actors (under the new
 *    count), then its own subjects after S. Hosts still running with the old
 *    count hold nothing (and log that they must be restarted).
 *
 * Running it again after a failure (same `to`) resumes: every step is safe to
 * repeat.
 *
 * @param options - see {@link ChangeShardCountOptions}.
 * @returns what it did.
 * @throws TroupeError `invalid_options` when `to` is not above the current count
 *   or above 4096, or no host ever started (nothing recorded).
 * @throws ShardCountChangingError when a change to another count is under way.
 * @throws TroupeError `timeout` when the hosts do not release their shards
 *   within `pauseTimeoutMs`, or the new mapping is not seen within
 *   `mappingTimeoutMs`; the change stays recorded (hosts stay paused): run it
 *   again to finish it.
 */
export async function changeShardCount(
  options: ChangeShardCountOptions,
): Promise<ShardCountChange> {
  const { nats, redis, to } = options;
  const prefix = options.prefix ?? "troupe";
  const keys = new RedisKeys(prefix);
  const streams = streamNames(prefix);
  const report = options.onStep ?? (() => undefined);
  const leaseTtlMs = options.leaseTtlMs ?? 2_000;
  const state = readShardCountState(await redis.hgetall(keys.deployment()));
  const from = state.shardCount;
  if (from === undefined) {
    throw new TroupeError(
      "invalid_options",
      "no shard count is recorded: no host ever started in this deployment",
    );
  }
  if (state.resizeTo !== undefined && state.resizeTo !== to) {
    throw new ShardCountChangingError(from, state.resizeTo, `a change to ${to} is refused`);
  }
  if (!Number.isSafeInteger(to) || to <= from || to > MAX_SHARD_COUNT) {
    throw new TroupeError(
      "invalid_options",
      `the new shard count must be a whole number above the current ${from} and at most ${MAX_SHARD_COUNT}; got ${to}`,
    );
  }
  await redis.hset(keys.deployment(), "resizeTo", to, "resizeFrom", from);
  report("pausing", { from, to });

  const leases = new RedisLeaseStore(redis, keys);
  const snapshots = new RedisSnapshotStore(redis, keys);
  const owner = `shard-count-change-${crypto.randomUUID()}`;
  const held = new Map<number, number>();
  const renewing = new AbortController();
  let lost: number | undefined;
  const renewal = (async () => {
    while (!renewing.signal.aborted) {
      await Promise.all(
        [...held].map(async ([shard, token]) => {
          const [kept] = await leases.renew(owner, [{ shard, token }], leaseTtlMs);
          if (kept !== "held") lost = shard;
        }),
      ).catch(() => undefined);
      await sleep(leaseTtlMs / 4, undefined, { signal: renewing.signal }).catch(() => undefined);
    }
  })();
  try {
    // 2. Every shard's lease, old and new.
    const deadline = Date.now() + (options.pauseTimeoutMs ?? 60_000);
    while (held.size < to) {
      for (let shard = 0; shard < to; shard += 1) {
        if (held.has(shard)) continue;
        const token = await leases.acquire(shard, owner, leaseTtlMs);
        if (token !== undefined) held.set(shard, token);
      }
      if (held.size === to) break;
      if (Date.now() > deadline) {
        throw new TroupeError(
          "timeout",
          `hosts still hold ${to - held.size} shards after ${options.pauseTimeoutMs ?? 60_000} ms; the change stays recorded, run it again to finish it`,
        );
      }
      await sleep(100);
    }
    assertHeld(lost);
    report("paused", { from, to });

    // 3. The new mapping, then the marker.
    const js = jetstream(nats);
    const jsm = await jetstreamManager(nats);
    await options.reload?.();
    report("waiting_for_mapping", { from, to });
    const probe = probeAddress(from, to);
    const mappingDeadline = Date.now() + (options.mappingTimeoutMs ?? 600_000);
    const publishProbe = async (): Promise<{ seq: number; mapped: boolean }> => {
      const ack = await js.publish(`troupe.${probe.kind}.${probe.id}.in`, new Uint8Array());
      const stored = await jsm.streams.getMessage(streams.inbox, { seq: ack.seq });
      const shard = stored === null ? -1 : parseShardInboxSubject(stored.subject).shard;
      return { seq: ack.seq, mapped: shard === shardOf(probe, to) };
    };
    // JetStream's API may not answer for a moment while the server reloads: a
    // failed probe counts as "not yet" (it is skipped like every probe).
    const tryProbe = () => publishProbe().catch(() => undefined);
    const waitOrTimeOut = async () => {
      if (Date.now() > mappingDeadline) {
        throw new TroupeError(
          "timeout",
          `nats-server does not map troupe.*.*.in with ${to} shards yet; reload it with the mapping for ${to} and run this again`,
        );
      }
      await sleep(500);
    };
    while ((await tryProbe())?.mapped !== true) await waitOrTimeOut();
    await sleep(options.settleMs ?? 1_000);
    let marker = await tryProbe();
    while (marker === undefined) {
      await waitOrTimeOut();
      marker = await tryProbe();
    }
    if (!marker.mapped) {
      throw new TroupeError("internal", "nats-server went back to the old mapping; run this again");
    }
    const markerSeq = marker.seq;
    report("marker_published", { from, to, markerSeq });
    assertHeld(lost);

    // 4. The lowest unfinished sequence of the old shards.
    let catchUpFrom = markerSeq;
    for (let shard = 0; shard < from; shard += 1) {
      const watermark = Math.max(1, (await snapshots.watermark(shard)) ?? 1);
      if (watermark >= catchUpFrom) continue;
      // STREAM.MSG.GET's `next_by_subj` (nats-server 2.9+; not in the client's
      // type): the shard's first message at or after its watermark. On any
      // failure the watermark itself is used (lower is always safe).
      const request = { seq: watermark, next_by_subj: shardInboxFilter(shard) } as unknown as {
        seq: number;
      };
      const next = await jsm.streams.getMessage(streams.inbox, request).then(
        (found) => (found === null ? markerSeq : found.seq),
        () => watermark,
      );
      catchUpFrom = Math.min(catchUpFrom, next);
    }

    // 5. Timers and dirty sets to their new shard; watermarks; the record.
    let movedTimers = 0;
    let movedDirtyActors = 0;
    for (let shard = 0; shard < from; shard += 1) {
      const timers = await redis.zrange(keys.timers(shard), "0", "-1", "WITHSCORES");
      for (let index = 0; index + 1 < timers.length; index += 2) {
        const member = timers[index] ?? "";
        const { address } = parseTimerMember(shard, member);
        const target = shardOf(splitAddress(address), to);
        if (target === shard) continue;
        await redis.zadd(keys.timers(target), Number(timers[index + 1] ?? 0), member);
        await redis.zrem(keys.timers(shard), member);
        movedTimers += 1;
      }
      for (const actor of await redis.smembers(keys.dirty(shard))) {
        const target = shardOf(splitAddress(actor), to);
        if (target === shard) continue;
        await redis.sadd(keys.dirty(target), actor);
        await redis.srem(keys.dirty(shard), actor);
        movedDirtyActors += 1;
      }
    }
    assertHeld(lost);
    // Each actor's keys carry its shard's hash tag (decision 0031): to the new one.
    const newKeys = new RedisKeys(prefix, to);
    let movedActorKeys = 0;
    for (let shard = 0; shard < from; shard += 1) {
      movedActorKeys += await moveActorKeys(redis, new RedisKeys(prefix, from), newKeys, shard);
    }
    for (const [shard, token] of held) {
      const saved = await snapshots.saveWatermark(shard, { owner, token }, catchUpFrom);
      if (saved !== "saved") assertHeld(shard);
    }
    report("moved_shard_data", {
      from,
      to,
      movedTimers,
      movedDirtyActors,
      movedActorKeys,
      catchUpFrom,
    });
    await redis
      .multi()
      .hset(
        keys.deployment(),
        "shardCount",
        to,
        "resizeFrom",
        from,
        "resizeMarkerSeq",
        markerSeq,
        "resizeCatchUpFrom",
        catchUpFrom,
        "earlierShardCounts",
        [...state.earlierShardCounts.filter((count) => count !== from), from].join(","),
      )
      .hdel(keys.deployment(), "resizeTo")
      .exec();
    report("done", { from, to, markerSeq, catchUpFrom });
    return { from, to, markerSeq, catchUpFrom, movedTimers, movedDirtyActors, movedActorKeys };
  } finally {
    renewing.abort();
    await renewal;
    await Promise.all(
      [...held].map(([shard, token]) => leases.release(shard, owner, token).catch(() => false)),
    );
  }
}

function assertHeld(lostShard: number | undefined): void {
  if (lostShard !== undefined) {
    throw new TroupeError(
      "lease_lost",
      `the change lost the lease of shard ${lostShard} (Redis unreachable for longer than the lease TTL?); nothing was switched, run it again`,
    );
  }
}

/** An address whose shard differs under the two counts, so a probe tells the mappings apart. */
function probeAddress(from: number, to: number): { kind: string; id: string } {
  for (let index = 0; ; index += 1) {
    const address = { kind: SHARD_COUNT_MARKER_KIND, id: `probe-${index}` };
    if (shardOf(address, from) !== shardOf(address, to)) return address;
  }
}

function splitAddress(address: string): { kind: string; id: string } {
  const slash = address.indexOf("/");
  return { kind: address.slice(0, slash), id: address.slice(slash + 1) };
}
