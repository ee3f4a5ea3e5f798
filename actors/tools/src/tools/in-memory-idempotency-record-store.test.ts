import { describe, expect, it } from "vitest";
import { idempotencyRecordStoreContractCases } from "./idempotency-record-store-contract.js";
import { InMemoryIdempotencyRecordStore } from "./in-memory-idempotency-record-store.js";

describe("InMemoryIdempotencyRecordStore keeps the IdempotencyRecordStore contract", () => {
  for (const { name, run } of idempotencyRecordStoreContractCases(
    () => new InMemoryIdempotencyRecordStore(),
  )) {
    it(name, run);
  }
});

describe("InMemoryIdempotencyRecordStore", () => {
  it("stamps records with the injected clock", async () => {
    let now = 1_000;
    const store = new InMemoryIdempotencyRecordStore({ now: () => now });
    await store.begin("s/r/c", "read");
    now = 2_000;
    await store.begin("s/r/c", "read");
    now = 3_000;
    await store.complete("s/r/c", "succeeded", { content: "ok" });
    expect(await store.get("s/r/c")).toEqual({
      state: "succeeded",
      executionAttempts: 2,
      effectClass: "read",
      result: { content: "ok" },
      createdAtMs: 1_000,
      startedAtMs: 2_000,
      completedAtMs: 3_000,
    });
  });
});
