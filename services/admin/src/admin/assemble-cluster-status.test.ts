import { describe, expect, it } from "vitest";
import { assembleClusterStatus, type ShardStatus } from "./assemble-cluster-status.js";

const shard = (overrides: Partial<ShardStatus> & { shard: number }): ShardStatus => ({
  owner: undefined,
  fencingToken: undefined,
  leaseRemainingMs: undefined,
  inboxLag: 0,
  consumer: true,
  watermark: undefined,
  armedTimers: 0,
  dirtyActors: 0,
  ...overrides,
});

describe("assembleClusterStatus", () => {
  it("groups shards by owner, derives heartbeat ages from expiries, and sums the totals", () => {
    const status = assembleClusterStatus({
      prefix: "troupe",
      shardCount: 4,
      observedAtMs: 100_000,
      membershipTtlMs: 2000,
      members: [
        { hostId: "host-b", expiresAtMs: 101_500 },
        { hostId: "host-a", expiresAtMs: 99_000 },
      ],
      shards: [
        shard({ shard: 0, owner: "host-b", fencingToken: 3, inboxLag: 5, armedTimers: 2 }),
        shard({ shard: 1, owner: "host-c", fencingToken: 1, inboxLag: undefined, consumer: false }),
        shard({ shard: 2, owner: "host-b", fencingToken: 7, dirtyActors: 1 }),
        shard({ shard: 3, inboxLag: 4 }),
      ],
      streams: {
        inbox: { name: "TROUPE_INBOX", messages: 40 },
        events: { name: "TROUPE_EVENTS", messages: 90 },
        deltas: { name: "TROUPE_DELTAS", messages: 7 },
        deadLetter: { name: "TROUPE_DEADLETTER", messages: 2 },
        transcript: { name: "TROUPE_TRANSCRIPT", messages: undefined },
      },
    });
    expect(status.hosts).toEqual([
      { hostId: "host-a", alive: false, lastHeartbeatAgeMs: 3000, shards: [] },
      { hostId: "host-b", alive: true, lastHeartbeatAgeMs: 500, shards: [0, 2] },
      { hostId: "host-c", alive: false, lastHeartbeatAgeMs: undefined, shards: [1] },
    ]);
    expect(status.totals).toEqual({
      liveHosts: 1,
      ownedShards: 3,
      freeShards: 1,
      inboxLag: 9,
      shardsWithUnknownLag: 1,
      deadLetters: 2,
      armedTimers: 2,
      dirtyActors: 1,
      refusedActors: 0,
    });
    expect(status.refusedActors).toEqual([]);
    expect(JSON.parse(JSON.stringify(status))).toMatchObject({ shardCount: 4, prefix: "troupe" });
  });
});
