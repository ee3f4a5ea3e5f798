import { describe, expect, it } from "vitest";
import {
  withExecutionClaims,
  type ExecutionClaim,
  type ExecutionClaims,
} from "./execution-claims.js";
import { idempotencyRecordStoreContractCases } from "./idempotency-record-store-contract.js";
import { InMemoryIdempotencyRecordStore } from "./in-memory-idempotency-record-store.js";

/** Claims in memory: first claim id per key wins; `ageMs` is what the test sets. */
class MemoryClaims implements ExecutionClaims {
  readonly owners = new Map<string, string>();
  readonly calls: string[] = [];
  ageMs = 0;
  claim(key: string, claimId: string): Promise<ExecutionClaim> {
    this.calls.push(key);
    const owner = this.owners.get(key);
    if (owner === undefined) this.owners.set(key, claimId);
    if (owner === undefined || owner === claimId) return Promise.resolve({ kind: "mine" });
    return Promise.resolve({ kind: "other", ageMs: this.ageMs });
  }
}

describe("withExecutionClaims keeps the IdempotencyRecordStore contract", () => {
  for (const { name, run } of idempotencyRecordStoreContractCases(() =>
    withExecutionClaims(new InMemoryIdempotencyRecordStore(), new MemoryClaims()),
  )) {
    it(name, run);
  }
});

describe("withExecutionClaims (issue #17)", () => {
  it("an at-most-once call whose record the store lost is outcome unknown, not run again", async () => {
    const claims = new MemoryClaims();
    const before = withExecutionClaims(new InMemoryIdempotencyRecordStore(), claims);
    expect(await before.begin("s/r/c", "non_idempotent_write", { claimId: "first" })).toEqual({
      kind: "run",
      executionAttempt: 1,
    });
    // Redis lost the record (a fresh store), the claim in the journal stayed.
    claims.ageMs = 60_000;
    const after = withExecutionClaims(new InMemoryIdempotencyRecordStore(), claims);
    expect(await after.begin("s/r/c", "non_idempotent_write", { claimId: "second" })).toEqual({
      kind: "outcome_unknown",
      executionAttempts: 1,
    });
    expect(await after.begin("s/r/c", "unclassified", { claimId: "third" })).toEqual({
      kind: "outcome_unknown",
      executionAttempts: 1,
    });
  });

  it("another invocation's claim younger than the liveness window makes the caller wait for it", async () => {
    const claims = new MemoryClaims();
    const store = withExecutionClaims(new InMemoryIdempotencyRecordStore(), claims);
    await claims.claim("s/r/c", "other-host");
    claims.ageMs = 1_500;
    expect(
      await store.begin("s/r/c", "non_idempotent_write", { claimId: "me", livenessMs: 5_000 }),
    ).toEqual({ kind: "running", executionAttempts: 1, liveForMs: 3_500 });
    // Past the window (or without liveness marks) it is outcome unknown.
    claims.ageMs = 5_000;
    expect(
      await store.begin("s/r/c", "non_idempotent_write", { claimId: "me", livenessMs: 5_000 }),
    ).toEqual({ kind: "outcome_unknown", executionAttempts: 1 });
  });

  it("the same invocation finds its own claim after a lost answer and runs", async () => {
    const claims = new MemoryClaims();
    const store = withExecutionClaims(new InMemoryIdempotencyRecordStore(), claims);
    await claims.claim("s/r/c", "me");
    claims.ageMs = 60_000;
    expect(await store.begin("s/r/c", "non_idempotent_write", { claimId: "me" })).toEqual({
      kind: "run",
      executionAttempt: 1,
    });
  });

  it("reads and idempotent writes are never claimed; a call with a record is decided by the store", async () => {
    const claims = new MemoryClaims();
    const store = withExecutionClaims(new InMemoryIdempotencyRecordStore(), claims);
    await store.begin("s/r/read", "read");
    await store.begin("s/r/save", "idempotent_write");
    expect(claims.calls).toEqual([]);
    await store.begin("s/r/pay", "non_idempotent_write", { claimId: "a" });
    await store.complete("s/r/pay", "succeeded", { content: "paid" });
    expect(await store.begin("s/r/pay", "non_idempotent_write", { claimId: "b" })).toEqual({
      kind: "reuse",
      status: "succeeded",
      result: { content: "paid" },
    });
    expect(claims.calls).toEqual(["s/r/pay"]);
  });
});
