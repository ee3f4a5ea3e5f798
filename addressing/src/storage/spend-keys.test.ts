import { describe, expect, it } from "vitest";
import { RedisKeys } from "./redis-keys.js";

/** The hash tag Redis Cluster hashes a key by: the text inside the first `{…}`. */
const hashTag = (key: string) => /\{([^}]*)\}/.exec(key)?.[1];

describe("RedisKeys spend keys (issue #19)", () => {
  it("puts every spend key under the one hash tag {spend}, so one script may touch them all", () => {
    const keys = new RedisKeys("acme");
    const all = [
      keys.spendBudget("run", "s1/r1"),
      keys.spendBudget("session", "s1"),
      keys.spendBudget("agent_day", "support/2026-12-01"),
      keys.spendReservation("sub-t1", "r1.m2.a1"),
      keys.spendReservations(),
      keys.spendUsage("sub-t1"),
      keys.spendTree("s1"),
    ];
    expect(all.map(hashTag)).toEqual(Array.from({ length: all.length }, () => "spend"));
    expect(keys.spendReservation("sub-t1", "r1.m2.a1")).toBe(
      "acme:{spend}:reservation:sub-t1/r1.m2.a1",
    );
    expect(keys.spendBudget("agent_day", "support/2026-12-01")).toBe(
      "acme:{spend}:budget:agent_day:support/2026-12-01",
    );
  });
});
