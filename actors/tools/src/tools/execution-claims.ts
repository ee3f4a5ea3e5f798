import { createHash } from "node:crypto";
import {
  JetStreamApiCodes,
  JetStreamApiError,
  type JetStreamClient,
  type JetStreamManager,
} from "@nats-io/jetstream";
import { executionClaimSubject, lastStoredMessage } from "@troupe/protocol";
import { isRetryableEffectClass, type ToolEffectClass } from "./define-tool.js";
import {
  type BeginOptions,
  type IdempotencyRecordDecision,
  type IdempotencyRecordStore,
} from "./idempotency-record-store.js";

/**
 * What {@link ExecutionClaims.claim} found: the claim is the caller's (`mine`:
 * written now, or earlier with the same claim id), or another invocation's,
 * written `ageMs` ago.
 */
export type ExecutionClaim =
  { readonly kind: "mine" } | { readonly kind: "other"; readonly ageMs: number };

/**
 * Durable execution claims of at-most-once tool calls, one per idempotency key,
 * first writer wins (decision 0031). They live beside the journal,
 * not in Redis: Redis may lose its latest writes on a failover or a crash, the
 * journal may not.
 */
export interface ExecutionClaims {
  /**
   * Claims the call for the invocation `claimId`, unless it is claimed already.
   *
   * @param idempotencyKey - `<sessionId>/<runId>/<toolCallId>`.
   * @param claimId - the invocation's id (kept across its retries).
   * @returns `mine`, or `other` with the claim's age in ms.
   * @throws the transport's error when the claim could not be written or read (retry it).
   */
  claim(idempotencyKey: string, claimId: string): Promise<ExecutionClaim>;
}

/**
 * {@link ExecutionClaims} in the deployment's `<P>_CLAIMS` JetStream stream
 * (`max_msgs_per_subject: 1`): a claim is a publish to
 * `_troupe.claim.<sha-256 of the key>` that expects the subject to be empty
 * (`Nats-Expected-Last-Subject-Sequence: 0`), so of two claims exactly one is
 * stored; the loser reads the stored one (its claim id and server timestamp).
 * A claim is as durable as the journal: quorum-replicated with stream replicas
 * ≥ 3, fsynced by the server's `sync_interval` otherwise.
 *
 * @example
 * const claims = new JetStreamExecutionClaims(js, jsm, streamNames("troupe").claims);
 * await claims.claim("s1/r1/c1", crypto.randomUUID()); // { kind: "mine" }
 */
export class JetStreamExecutionClaims implements ExecutionClaims {
  /**
   * @param js - JetStream client of the host.
   * @param jsm - JetStream manager (reads the stored claim).
   * @param stream - the claims stream's name (`streamNames(prefix).claims`).
   * @param now - the clock the claim's age is measured with (Unix ms); default `Date.now`.
   */
  constructor(
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    private readonly stream: string,
    private readonly now: () => number = Date.now,
  ) {}

  async claim(idempotencyKey: string, claimId: string): Promise<ExecutionClaim> {
    const subject = executionClaimSubject(
      createHash("sha256").update(idempotencyKey).digest("hex"),
    );
    try {
      await this.js.publish(subject, JSON.stringify({ idempotencyKey, claimId }), {
        expect: { lastSubjectSequence: 0 },
      });
      return { kind: "mine" };
    } catch (error) {
      if (
        !(error instanceof JetStreamApiError) ||
        error.code !== JetStreamApiCodes.StreamWrongLastSequence
      ) {
        throw error;
      }
    }
    const stored = await lastStoredMessage(this.jsm, this.stream, subject);
    if (stored === null)
      throw new Error(`execution claim of ${idempotencyKey} vanished while read`);
    const body = stored.json<{ claimId?: unknown }>();
    if (body.claimId === claimId) return { kind: "mine" };
    return { kind: "other", ageMs: Math.max(0, this.now() - stored.time.getTime()) };
  }
}

/**
 * Wraps an idempotency record store so that an at-most-once tool call
 * (`non_idempotent_write`, `unclassified`) also needs a durable execution claim
 * before it runs (decision 0031). Redis replication and `appendfsync
 * everysec` are asynchronous: a failover or a crash can lose the record of a
 * call that started, and without a claim the call would run again.
 *
 * `begin` for an at-most-once class:
 * - a record exists in the store: the store decides, as without claims (the
 *   invocation that created it claimed the call first);
 * - no record, and the claim is `mine`: the store's `begin` (normally `run`);
 * - no record, another invocation's claim younger than the caller's
 *   `livenessMs`: `running` (that invocation is about to record its start), so
 *   the caller waits; without `livenessMs` (no liveness marks) as an older claim;
 * - no record, an older claim: the store lost the record of a call that may
 *   have run → `outcome_unknown`, never a second execution.
 * Reads and idempotent writes go to the store alone.
 *
 * @param records - the store (e.g. `RedisIdempotencyRecordStore`).
 * @param claims - where claims are written (e.g. `JetStreamExecutionClaims`).
 * @returns a store with the same contract plus the claim.
 */
export function withExecutionClaims(
  records: IdempotencyRecordStore,
  claims: ExecutionClaims,
): IdempotencyRecordStore {
  return {
    maxExecutionAttempts: records.maxExecutionAttempts,
    keepAlive: (key, attempt, ms) => records.keepAlive(key, attempt, ms),
    complete: (key, status, result) => records.complete(key, status, result),
    get: (key) => records.get(key),
    async begin(
      key: string,
      effectClass: ToolEffectClass,
      beginOptions: BeginOptions = {},
    ): Promise<IdempotencyRecordDecision> {
      if (isRetryableEffectClass(effectClass)) return records.begin(key, effectClass, beginOptions);
      if ((await records.get(key)) !== undefined) {
        return records.begin(key, effectClass, beginOptions);
      }
      const claim = await claims.claim(key, beginOptions.claimId ?? crypto.randomUUID());
      if (claim.kind === "mine") return records.begin(key, effectClass, beginOptions);
      const livenessMs = beginOptions.livenessMs ?? 0;
      if (claim.ageMs < livenessMs) {
        return { kind: "running", executionAttempts: 1, liveForMs: livenessMs - claim.ageMs };
      }
      return { kind: "outcome_unknown", executionAttempts: 1 };
    },
  };
}
