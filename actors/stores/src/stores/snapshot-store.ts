import type { ActorRecord, PendingTimer } from "@troupe/step";

/**
 * Snapshot generations of actors, written only by the owner of the actor's shard.
 *
 * `commit` is the single atomic step of docs/design.md ("Processing one message", step
 * 4): it compares the stored generation and the shard's fencing token, writes the
 * next generation (which carries the outbox and pending effects), keeps a bounded
 * number of earlier generations, and updates the shard's durable timers and dirty
 * set — all or nothing.
 */
export interface SnapshotStore {
  /**
   * The latest generation, or undefined for an actor never written. Its outbox
   * is empty once confirmed ({@link SnapshotStore.confirmOutbox}).
   */
  load(address: string): Promise<StoredRecord | undefined>;
  /**
   * Earlier generations kept for inspection, newest first: at most
   * `keepGenerations`, gone `historyRetentionMs` after the actor's last commit,
   * each without its outbox (`outbox: []`; it was published when the next
   * generation was committed). Decision 0015.
   */
  history(address: string): Promise<ActorRecord[]>;
  /**
   * Writes `next` (generation `previous.generation + 1`).
   *
   * @returns `{ outcome: "committed", writes }` (`writes`: the commits made
   *   under this lease grant, this one included); or `fenced` when `owner` and
   *   `token` are no longer the shard's lease; `writes_lost` when the lease
   *   counts fewer commits than `writesFloor` (the store lost writes);
   *   `conflict` when the stored generation moved. Nothing is written unless committed.
   */
  commit(input: CommitInput): Promise<CommitResult>;
  /**
   * Marks the outbox of `generation` as published (at passivation, and by the
   * host's housekeeping), so the next activation does not publish it again, and
   * drops it from the stored generation (a published outbox is never read
   * again). No-op when `record` is no longer the stored generation.
   */
  confirmOutbox(shard: number, record: ActorRecord): Promise<void>;
  /** Actors of the shard with running effects or an unconfirmed outbox. */
  dirtyActors(shard: number): Promise<string[]>;
  /**
   * Timers due now (by the store's clock: Redis `TIME`) in the given shards,
   * at most `limit` each; `aheadMs` (default 0) looks that much further
   * ahead (a host's `simulatedStreamTimeOffsetMs`).
   */
  dueTimers(shards: readonly number[], limit: number, aheadMs?: number): Promise<DueTimer[]>;
  /**
   * Forgets fired timers (after their `timer.fired` message was published):
   * each only while it is still due at the `dueAtMs` it fired with, so a timer
   * its early firing put back meanwhile (`rearmTimer`) is kept (docs/decisions/0050).
   */
  removeTimers(timers: readonly DueTimer[]): Promise<void>;
  /**
   * Puts a timer back into its shard's timer set, due at `dueAtMs` (by the
   * store's clock), after its firing came before its deadline by stream time
   * (a store clock ahead of the stream's must not fire a timer early).
   * Unfenced: a timer the actor's snapshot no longer holds is skipped when it fires.
   */
  rearmTimer(timer: DueTimer, dueAtMs: number): Promise<void>;
  /** Inbox sequence from which a new owner of the shard starts reading. */
  watermark(shard: number): Promise<number | undefined>;
  /**
   * Saves the watermark, only while `lease` is the shard's lease and the store
   * holds at least `lease.writesFloor` commits under it (a watermark past
   * commits the store lost would skip their messages for good).
   *
   * @returns `saved`, `fenced` or `writes_lost`.
   */
  saveWatermark(shard: number, lease: LeaseGrant, seq: number): Promise<WatermarkOutcome>;
}

/** A stored generation and whether its outbox is known to be published. */
export interface StoredRecord {
  readonly record: ActorRecord;
  readonly outboxConfirmed: boolean;
}

/** The lease grant a write is made under: its owner, fencing token and the commits the owner knows it made. */
export interface LeaseGrant {
  readonly owner: string;
  readonly token: number;
  /** Commits the owner knows it made under this grant; default 0. */
  readonly writesFloor?: number;
}

/** Arguments of {@link SnapshotStore.commit}. */
export interface CommitInput extends LeaseGrant {
  readonly shard: number;
  readonly previous: ActorRecord | undefined;
  readonly next: ActorRecord;
  /** Earlier generations to keep besides the latest. */
  readonly keepGenerations: number;
  /**
   * How long the kept generations outlive the actor's last commit, in ms
   * (each commit that pushes one starts the period again); 0 or undefined:
   * until pushed out by newer ones. Decision 0015.
   */
  readonly historyRetentionMs?: number;
}

/** Outcome of {@link SnapshotStore.commit}. */
export type CommitOutcome = "committed" | "fenced" | "conflict" | "writes_lost";

/** Result of {@link SnapshotStore.commit}: the outcome and, once committed, the grant's commit count. */
export type CommitResult =
  | { readonly outcome: "committed"; readonly writes: number }
  | { readonly outcome: Exclude<CommitOutcome, "committed"> };

/** Outcome of {@link SnapshotStore.saveWatermark}. */
export type WatermarkOutcome = "saved" | "fenced" | "writes_lost";

/** A timer whose deadline passed. */
export interface DueTimer {
  readonly shard: number;
  readonly address: string;
  readonly timer: Pick<PendingTimer, "timerId" | "deadlineMs">;
  /**
   * When the timer set had it due (its score, Unix ms by the store's clock):
   * the deadline, lower after a test clock's advance, higher after an early
   * firing was re-armed (docs/decisions/0050). Default: the deadline.
   */
  readonly dueAtMs?: number;
}
