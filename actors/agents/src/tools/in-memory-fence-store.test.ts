import { describe, expect, it } from "vitest";
import { fenceStoreContractCases } from "./fence-store-contract.js";
import { InMemoryFenceStore } from "./in-memory-fence-store.js";

describe("InMemoryFenceStore keeps the FenceStore contract", () => {
  for (const { name, run } of fenceStoreContractCases(() => new InMemoryFenceStore())) {
    it(name, run);
  }
});

describe("InMemoryFenceStore", () => {
  it("stamps records with the injected clock", async () => {
    let now = 1_000;
    const store = new InMemoryFenceStore({ now: () => now });
    await store.begin("s/r/c", "read");
    now = 2_000;
    await store.begin("s/r/c", "read");
    now = 3_000;
    await store.complete("s/r/c", "succeeded", { content: "ok" });
    expect(await store.get("s/r/c")).toEqual({
      state: "succeeded",
      attempts: 2,
      effectClass: "read",
      result: { content: "ok" },
      createdAtMs: 1_000,
      startedAtMs: 2_000,
      completedAtMs: 3_000,
    });
  });
});
