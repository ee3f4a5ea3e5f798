import { describe, expect, it } from "vitest";
import { assembleClusterStatus } from "./assemble-cluster-status.js";
import { formatClusterStatus, formatShardRanges } from "./format-cluster-status.js";

describe("formatClusterStatus", () => {
  it("prints totals, hosts with shard ranges, shards and streams", () => {
    const status = assembleClusterStatus({
      prefix: "troupe",
      shardCount: 3,
      observedAtMs: 50_000,
      membershipTtlMs: 2000,
      members: [{ hostId: "host-a", expiresAtMs: 51_750 }],
      shards: [0, 1, 2].map((shard) => ({
        shard,
        owner: shard < 2 ? "host-a" : undefined,
        fencingToken: shard < 2 ? shard + 1 : undefined,
        leaseRemainingMs: shard < 2 ? 1500 : undefined,
        inboxLag: shard === 2 ? undefined : shard * 3,
        consumer: shard !== 2,
        watermark: shard === 0 ? 42 : undefined,
        armedTimers: shard,
        dirtyActors: 0,
      })),
      streams: {
        inbox: { name: "TROUPE_INBOX", messages: 41 },
        events: { name: "TROUPE_EVENTS", messages: 100 },
        deltas: { name: "TROUPE_DELTAS", messages: 7 },
        deadLetter: { name: "TROUPE_DEADLETTER", messages: 0 },
        transcript: { name: "TROUPE_TRANSCRIPT", messages: undefined },
      },
    });
    expect(formatClusterStatus(status)).toBe(
      [
        "deployment    troupe (3 shards)",
        "hosts         1 live of 1 known",
        "shards        2 owned, 1 free",
        "inbox lag     3 messages (+ 1 shards unknown)",
        "dead letters  0",
        "timers        3 armed",
        "dirty actors  0",
        "",
        "host    state   heartbeat  shards  owned",
        "host-a  live   250 ms ago       2  0-1",
        "",
        "shard  owner   token  lease left  lag  watermark  timers  dirty",
        "    0  host-a      1       1.5 s    0         42       0      0",
        "    1  host-a      2       1.5 s    3          -       1      0",
        "    2  (free)      -           -    ?          -       2      0",
        "",
        "stream             messages",
        "TROUPE_INBOX             41",
        "TROUPE_EVENTS           100",
        "TROUPE_DELTAS             7",
        "TROUPE_DEADLETTER         0",
        "TROUPE_TRANSCRIPT         -",
      ].join("\n"),
    );
  });
});

describe("formatShardRanges", () => {
  it("collapses consecutive shards into ranges", () => {
    expect(formatShardRanges([0, 1, 2, 5, 7, 8])).toBe("0-2, 5, 7-8");
    expect(formatShardRanges([3])).toBe("3");
    expect(formatShardRanges([])).toBe("-");
  });
});
