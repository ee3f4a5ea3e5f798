import { describe, expect, it } from "vitest";
import { assignShards } from "./shard-assignment.js";

function counts(owners: string[]): Map<string, number> {
  const result = new Map<string, number>();
  for (const owner of owners) result.set(owner, (result.get(owner) ?? 0) + 1);
  return result;
}

describe("assignShards", () => {
  it("gives every shard an owner and each host a fair share (within one of S/H)", () => {
    for (const hostCount of [1, 2, 3, 4, 5, 7]) {
      const hosts = Array.from({ length: hostCount }, (_, index) => `host-${index}-${index * 37}`);
      const owners = assignShards(64, hosts);
      expect(owners).toHaveLength(64);
      for (const count of counts(owners).values()) {
        expect(Math.abs(count - 64 / hostCount)).toBeLessThan(1);
      }
      expect(counts(owners).size).toBe(hostCount);
    }
  });

  it("is the same whatever order the membership list comes in", () => {
    expect(assignShards(64, ["c", "a", "b"])).toEqual(assignShards(64, ["b", "c", "a", "a"]));
  });

  it("moves few shards when a fourth host joins", () => {
    const before = assignShards(64, ["alpha", "beta", "gamma"]);
    const after = assignShards(64, ["alpha", "beta", "gamma", "delta"]);
    const moved = before.filter((owner, shard) => after[shard] !== owner).length;
    expect(after.filter((owner) => owner === "delta")).toHaveLength(16);
    // Ideal is 16 (only the newcomer's share); the greedy quota may move a few more.
    expect(moved).toBeLessThanOrEqual(28);
  });

  it("returns no owners without hosts", () => {
    expect(assignShards(8, [])).toEqual([]);
  });
});
