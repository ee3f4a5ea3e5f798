import { RedisKeys } from "@troupe/protocol/internal";
import { RedisSnapshotStore, timerMember } from "@troupe/runtime/internal";
import { formatAddress, parseAddress, shardOf } from "@troupe/protocol";
import { DEFAULT_DEPLOYMENT_PREFIX, type AdminDeps } from "./admin-deps.js";
import { redisTimeMs } from "./redis-time-ms.js";
import { snapshotGenerationView, type SnapshotGenerationView } from "./snapshot-generation-view.js";

/** The lease of a shard as stored. Shape: `{ owner, fencingToken, remainingMs }`. */
export interface ShardLeaseView {
  /** Host id holding the lease; undefined when the shard is free. */
  readonly owner: string | undefined;
  /** Fencing token of the current lease; undefined when free. */
  readonly fencingToken: number | undefined;
  /** Lease time left in ms (renewed every 500 ms by default); undefined when free. */
  readonly remainingMs: number | undefined;
}

/**
 * Everything stored about one actor, as `troupe inspect <kind/id>` shows it.
 * JSON-serializable (no Map, bigint or bytes).
 *
 * Shape: `{ address, kind, id, exists, shard, shardCount, observedAtMs, lease,
 * lastFencingToken, outboxConfirmed, dirty, generations[], notes[] }`.
 */
export interface ActorInspection {
  /** `kind/id`. */
  readonly address: string;
  readonly kind: string;
  readonly id: string;
  /** False when no snapshot was ever written (the actor never processed a message). */
  readonly exists: boolean;
  /** `shardOf(address, shardCount)`. */
  readonly shard: number;
  readonly shardCount: number;
  /** Redis clock when the data was read, Unix ms. */
  readonly observedAtMs: number;
  /** The lease of the actor's shard. */
  readonly lease: ShardLeaseView;
  /** Last fencing token ever issued for the shard (the `fence` counter). */
  readonly lastFencingToken: number | undefined;
  /** Whether the outbox of the latest generation is confirmed published; undefined if none. */
  readonly outboxConfirmed: boolean | undefined;
  /** Whether the actor is in its shard's dirty set (running effects or unconfirmed outbox). */
  readonly dirty: boolean;
  /** Stored generations, newest first: the latest, then the kept earlier ones. */
  readonly generations: readonly SnapshotGenerationView[];
  /** Inconsistencies found in the stored data, in words (usually empty). */
  readonly notes: readonly string[];
  /**
   * For a run actor in a run: the agent definition the run is pinned to
   * (docs/decisions/0055), from the latest snapshot; undefined otherwise.
   */
  readonly definition?: PinnedDefinitionView | undefined;
}

/**
 * The agent definition a run is pinned to, as `troupe inspect run/<session>` shows it.
 *
 * Shape: `{ agent?, hash (64 hex digits), version?, migratedFrom?: { hash, version? } }`;
 * `agent` absent = the host's default agent.
 */
export interface PinnedDefinitionView {
  readonly agent?: string;
  readonly hash: string;
  readonly version?: string;
  readonly migratedFrom?: { readonly hash: string; readonly version?: string };
}

/**
 * The pinned definition of a run actor's context (`context.run.definition`). Pure.
 *
 * @param context - a decoded snapshot context.
 * @returns the view; undefined for another kind of context or a run not pinned yet.
 */
export function pinnedDefinitionOf(context: unknown): PinnedDefinitionView | undefined {
  const run = (context as { run?: unknown } | null | undefined)?.run;
  if (typeof run !== "object" || run === null) return undefined;
  const { agent, definition } = run as { agent?: unknown; definition?: unknown };
  if (typeof definition !== "object" || definition === null) return undefined;
  const { hash, version, migratedFrom } = definition as Record<string, unknown>;
  if (typeof hash !== "string") return undefined;
  const from = migratedFrom as { hash?: unknown; version?: unknown } | undefined;
  return {
    ...(typeof agent === "string" ? { agent } : {}),
    hash,
    ...(typeof version === "string" ? { version } : {}),
    ...(typeof from?.hash === "string"
      ? {
          migratedFrom: {
            hash: from.hash,
            ...(typeof from.version === "string" ? { version: from.version } : {}),
          },
        }
      : {}),
  };
}

/**
 * Reads everything stored about one actor: its shard's lease, the latest
 * snapshot and the kept earlier generations (`<p>:actor:<address>`,
 * `<p>:history:<address>`), the dirty set and the shard's timer set. Read-only.
 *
 * @param deps - Redis, JetStream manager, prefix (default `"troupe"`) and shard count.
 * @param address - `kind/id`, e.g. `session/demo-1`.
 * @returns the inspection; `exists: false` (and no generations) for an actor that
 *   has never been written.
 * @throws InvalidAddressError (from `@troupe/protocol`) when `address` is not a valid `kind/id`.
 * @throws RangeError when `deps.shardCount` is not a whole number from 1 to 4096.
 * @example
 * const inspection = await inspectActor({ redis, jsm, shardCount: 64 }, "session/demo-1");
 * console.log(formatActorInspection(inspection));
 */
export async function inspectActor(deps: AdminDeps, address: string): Promise<ActorInspection> {
  const parsed = parseAddress(address);
  const actor = formatAddress(parsed);
  const shard = shardOf(parsed, deps.shardCount);
  const keys = new RedisKeys(deps.prefix ?? DEFAULT_DEPLOYMENT_PREFIX, deps.shardCount);
  const snapshots = new RedisSnapshotStore(deps.redis, keys);
  const [observedAtMs, stored, history, holder, fence, dirty] = await Promise.all([
    redisTimeMs(deps.redis),
    snapshots.load(actor),
    snapshots.history(actor),
    leaseOf(deps.redis, keys, shard),
    deps.redis.get(keys.fence(shard)),
    deps.redis.sismember(keys.dirty(shard), actor),
  ]);
  const generations = [
    ...(stored === undefined
      ? []
      : [snapshotGenerationView(stored.record, { latest: true, observedAtMs })]),
    ...history.map((record) => snapshotGenerationView(record, { latest: false, observedAtMs })),
  ];
  const latestTimers = stored?.record.timers ?? [];
  const scheduled = await Promise.all(
    latestTimers.map(
      async (timer) =>
        (await deps.redis.zscore(keys.timers(shard), timerMember(actor, timer))) !== null,
    ),
  );
  const notes = inspectionNotes({
    generations,
    unscheduledTimerIds: latestTimers
      .filter((_, index) => scheduled[index] !== true)
      .map((timer) => timer.timerId),
    dirty: dirty === 1,
    outboxConfirmed: stored?.outboxConfirmed,
  });
  return {
    address: actor,
    kind: parsed.kind,
    id: parsed.id,
    exists: stored !== undefined,
    shard,
    shardCount: deps.shardCount,
    observedAtMs,
    lease: holder,
    lastFencingToken: fence === null ? undefined : Number(fence),
    outboxConfirmed: stored?.outboxConfirmed,
    dirty: dirty === 1,
    generations,
    notes,
    definition: pinnedDefinitionOf(
      generations[0]?.latest === true ? generations[0].context : undefined,
    ),
  };
}

async function leaseOf(
  redis: AdminDeps["redis"],
  keys: RedisKeys,
  shard: number,
): Promise<ShardLeaseView> {
  // The same fields `RedisLeaseStore.holders` reads, for one shard only.
  const [[owner, token], ttlMs] = await Promise.all([
    redis.hmget(keys.lease(shard), "owner", "token"),
    redis.pttl(keys.lease(shard)),
  ]);
  return {
    owner: owner ?? undefined,
    fencingToken: token === null || token === undefined ? undefined : Number(token),
    remainingMs: owner !== null && owner !== undefined && ttlMs >= 0 ? ttlMs : undefined,
  };
}

/**
 * Inconsistencies between the pieces stored about one actor. Pure.
 *
 * @param input - the decoded generations (newest first), ids of timers armed in the
 *   latest generation but missing from the shard's timer set, the dirty flag and
 *   whether the latest outbox is confirmed.
 * @returns one sentence per finding; empty when everything agrees.
 */
export function inspectionNotes(input: {
  readonly generations: readonly SnapshotGenerationView[];
  readonly unscheduledTimerIds: readonly string[];
  readonly dirty: boolean;
  readonly outboxConfirmed: boolean | undefined;
}): string[] {
  const notes: string[] = [];
  const { generations } = input;
  for (let index = 1; index < generations.length; index += 1) {
    const newer = generations[index - 1];
    const older = generations[index];
    if (newer === undefined || older === undefined) continue;
    if (older.generation >= newer.generation) {
      notes.push(
        `generation ${older.generation} is kept after generation ${newer.generation}; the history should be newest first`,
      );
    }
    if (older.inboxSeq > newer.inboxSeq) {
      notes.push(
        `generation ${older.generation} reflects inbox sequence ${older.inboxSeq}, later than generation ${newer.generation} (${newer.inboxSeq})`,
      );
    }
  }
  if (input.unscheduledTimerIds.length > 0) {
    notes.push(
      `timers armed in the latest generation but not in the shard's timer set: ${input.unscheduledTimerIds.join(", ")} ` +
        `(normal for a moment after a timer fired, before its timer.fired is processed)`,
    );
  }
  const latest = generations[0];
  if (latest?.latest === true) {
    const needsWork =
      latest.effects.length > 0 || (input.outboxConfirmed === false && latest.outboxItems > 0);
    if (needsWork && !input.dirty) {
      notes.push(
        "the actor has pending effects or an unconfirmed outbox but is not in its shard's dirty set",
      );
    }
  } else if (generations.length > 0) {
    notes.push("earlier generations are kept but there is no latest snapshot");
  }
  return notes;
}
