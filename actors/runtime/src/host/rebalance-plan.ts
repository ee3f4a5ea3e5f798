import { assignShards } from "./shard-assignment.js";

/** What {@link planRebalance} decides from. Shape: `{ shardCount, hostId, members, held, releasing, settling }`. */
export interface RebalanceInput {
  /** Shards of the deployment. */
  readonly shardCount: number;
  /** This host. */
  readonly hostId: string;
  /** Live hosts at the last heartbeat (including this one). */
  readonly members: readonly string[];
  /** Shards this host has a worker for (serving or draining). */
  readonly held: ReadonlySet<number>;
  /** Of `held`, the shards already draining (their release is under way). */
  readonly releasing: ReadonlySet<number>;
  /** While the membership settles, nothing is acquired (see {@link MembershipSettling}). */
  readonly settling: boolean;
}

/** What {@link planRebalance} decides. Shape: `{ acquire, release }`, shard indexes ascending. */
export interface RebalancePlan {
  /** Shards of this host's fair share it holds no worker for: acquire their leases. */
  readonly acquire: number[];
  /** Shards it serves that belong to another host now: drain and release them. */
  readonly release: number[];
}

/**
 * One rebalance step of a host (pure): compares the shards it holds with its
 * fair share under the live membership (`assignShards`). A host never acquires
 * while the membership settles, so it never takes more than its fair share of a
 * membership it has not fully seen yet (docs/decisions/0010); releases go on meanwhile.
 *
 * @param input - see {@link RebalanceInput}.
 * @returns the shards to acquire and to release.
 */
export function planRebalance(input: RebalanceInput): RebalancePlan {
  const owners = assignShards(input.shardCount, input.members);
  const acquire: number[] = [];
  const release: number[] = [];
  for (let shard = 0; shard < input.shardCount; shard += 1) {
    const mine = owners[shard] === input.hostId;
    if (!mine && input.held.has(shard) && !input.releasing.has(shard)) release.push(shard);
    else if (mine && !input.held.has(shard) && !input.settling) acquire.push(shard);
  }
  return { acquire, release };
}

/**
 * Tracks whether a host's view of the membership has settled (pure state, fed
 * with each heartbeat). A host that was not a live member before a heartbeat —
 * it just started, or its record lapsed (a pause, a Redis outage longer than the
 * membership TTL, Redis restarted empty) — sees only the hosts that heartbeated
 * since; others that start or reconnect at about the same time are not in the
 * list yet. It therefore settles for `windowMs` (by default the membership TTL:
 * the longest a live host goes unseen) before it acquires anything (docs/decisions/0010).
 *
 * @example
 * const settling = new MembershipSettling(2000);
 * settling.observe(0, false); // true: settling until 2000
 * settling.observe(2000, true); // false: settled
 */
export class MembershipSettling {
  #until = Number.POSITIVE_INFINITY;

  /** @param windowMs - how long to settle after (re)joining, in ms. */
  constructor(private readonly windowMs: number) {}

  /**
   * Feeds one heartbeat.
   *
   * @param nowMs - monotonic time of the heartbeat, in ms.
   * @param wasMember - whether the host was a live member before it.
   * @returns whether the host is settling (must not acquire) now.
   */
  observe(nowMs: number, wasMember: boolean): boolean {
    if (!wasMember || this.#until === Number.POSITIVE_INFINITY) this.#until = nowMs + this.windowMs;
    return nowMs < this.#until;
  }
}
