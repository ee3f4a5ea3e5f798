import { describe, expect, it } from "vitest";
import { MembershipSettling, planRebalance } from "./rebalance-plan.js";
import { assignShards } from "./shard-assignment.js";

const hosts = ["host-a", "host-b"];

describe("planRebalance", () => {
  it("acquires exactly the free shards of the fair share once settled", () => {
    const owners = assignShards(64, hosts);
    const plan = planRebalance({
      shardCount: 64,
      hostId: "host-a",
      members: hosts,
      held: new Set(),
      releasing: new Set(),
      settling: false,
    });
    const mine = owners.flatMap((owner, shard) => (owner === "host-a" ? [shard] : []));
    expect(mine).toHaveLength(32);
    expect(plan).toEqual({ acquire: mine, release: [] });
  });

  it("acquires nothing while settling, even when it sees itself alone, but still releases", () => {
    const plan = planRebalance({
      shardCount: 8,
      hostId: "host-a",
      members: ["host-a"],
      held: new Set(),
      releasing: new Set(),
      settling: true,
    });
    expect(plan).toEqual({ acquire: [], release: [] });
    const owners = assignShards(8, hosts);
    const theirs = owners.flatMap((owner, shard) => (owner === "host-b" ? [shard] : []));
    const releasing = planRebalance({
      shardCount: 8,
      hostId: "host-a",
      members: hosts,
      held: new Set([0, 1, 2, 3, 4, 5, 6, 7]),
      releasing: new Set(),
      settling: true,
    });
    expect(releasing).toEqual({ acquire: [], release: theirs });
  });

  it("does not release a shard twice while it drains", () => {
    const owners = assignShards(8, hosts);
    const theirs = owners.flatMap((owner, shard) => (owner === "host-b" ? [shard] : []));
    const [draining, ...rest] = theirs;
    const plan = planRebalance({
      shardCount: 8,
      hostId: "host-a",
      members: hosts,
      held: new Set([0, 1, 2, 3, 4, 5, 6, 7]),
      releasing: new Set([draining!]),
      settling: false,
    });
    expect(plan.release).toEqual(rest);
  });
});

describe("MembershipSettling", () => {
  it("settles for the window after the first heartbeat, then stays settled while a member", () => {
    const settling = new MembershipSettling(2000);
    expect(settling.observe(1000, false)).toBe(true);
    expect(settling.observe(1250, true)).toBe(true);
    expect(settling.observe(2999, true)).toBe(true);
    expect(settling.observe(3000, true)).toBe(false);
    expect(settling.observe(60_000, true)).toBe(false);
  });

  it("settles again from the heartbeat that finds its membership record lapsed", () => {
    const settling = new MembershipSettling(2000);
    settling.observe(0, false);
    expect(settling.observe(5000, true)).toBe(false);
    expect(settling.observe(9000, false)).toBe(true);
    expect(settling.observe(10_999, true)).toBe(true);
    expect(settling.observe(11_000, true)).toBe(false);
  });

  it("settles on the first heartbeat even if a record of the same host id was live", () => {
    const settling = new MembershipSettling(500);
    expect(settling.observe(100, true)).toBe(true);
    expect(settling.observe(600, true)).toBe(false);
  });
});
