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
  it("lists the actors a host refuses for their machine version, stale records left out (issue #14)", () => {
    const status = assembleClusterStatus({
      prefix: "troupe",
      shardCount: 1,
      observedAtMs: 50_000,
      membershipTtlMs: 2000,
      members: [{ hostId: "host-a", expiresAtMs: 51_750 }],
      shards: [
        {
          shard: 0,
          owner: "host-a",
          fencingToken: 1,
          leaseRemainingMs: 1500,
          inboxLag: 3,
          consumer: true,
          watermark: 7,
          armedTimers: 0,
          dirtyActors: 0,
        },
      ],
      refusedActors: [
        {
          actor: "ledger/x",
          hostId: "host-a",
          storedVersion: "2",
          hostVersion: "1",
          refusals: 4,
          waitingMessages: 3,
          sinceMs: 10_000,
          expiresAtMs: 60_000,
        },
        {
          actor: "ledger/gone",
          hostId: "host-dead",
          storedVersion: "2",
          hostVersion: "1",
          refusals: 9,
          waitingMessages: 1,
          sinceMs: 1_000,
          expiresAtMs: 50_000,
        },
      ],
      streams: {
        inbox: { name: "TROUPE_INBOX", messages: 10 },
        events: { name: "TROUPE_EVENTS", messages: 0 },
        deltas: { name: "TROUPE_DELTAS", messages: 0 },
        deadLetter: { name: "TROUPE_DEADLETTER", messages: 0 },
        transcript: { name: "TROUPE_TRANSCRIPT", messages: 0 },
      },
    });
    expect(status.totals.refusedActors).toBe(1);
    expect(status.refusedActors.map((actor) => actor.actor)).toEqual(["ledger/x"]);
    const text = formatClusterStatus(status);
    expect(text).toContain(
      "refused actors  1 — a host cannot read their snapshot's machine version; their messages wait: " +
        "deploy a host that runs the stored version, or add a migration",
    );
    expect(text).toContain(
      [
        "refused actor  stored version  host version  host    waiting  attempts",
        "ledger/x       2               1             host-a        3         4",
      ].join("\n"),
    );
    expect(text).not.toContain("ledger/gone");
  });

  it("adds a metrics column when hosts advertise their metrics URL (issue #18)", () => {
    const status = assembleClusterStatus({
      prefix: "troupe",
      shardCount: 2,
      observedAtMs: 50_000,
      membershipTtlMs: 2000,
      members: [
        { hostId: "host-a", expiresAtMs: 51_750 },
        { hostId: "host-b", expiresAtMs: 51_750 },
      ],
      shards: [0, 1].map((shard) => ({
        shard,
        owner: shard === 0 ? "host-a" : "host-b",
        fencingToken: 1,
        leaseRemainingMs: 1500,
        inboxLag: 0,
        consumer: true,
        watermark: undefined,
        armedTimers: 0,
        dirtyActors: 0,
      })),
      streams: {
        inbox: { name: "TROUPE_INBOX", messages: 0 },
        events: { name: "TROUPE_EVENTS", messages: 0 },
        deltas: { name: "TROUPE_DELTAS", messages: 0 },
        deadLetter: { name: "TROUPE_DEADLETTER", messages: 0 },
        transcript: { name: "TROUPE_TRANSCRIPT", messages: 0 },
      },
    });
    const withUrl = {
      ...status,
      hosts: status.hosts.map((host) =>
        host.hostId === "host-a" ? { ...host, metricsUrl: "http://127.0.0.1:9464/metrics" } : host,
      ),
    };
    const lines = formatClusterStatus(withUrl).split("\n");
    expect(lines).toContain("host    state   heartbeat  shards  owned  metrics");
    expect(lines).toContain(
      "host-a  live   250 ms ago       1  0      http://127.0.0.1:9464/metrics",
    );
    expect(lines).toContain("host-b  live   250 ms ago       1  1      -");
    expect(formatClusterStatus(status)).not.toContain("metrics");
  });

  it("collapses consecutive shards into ranges", () => {
    expect(formatShardRanges([0, 1, 2, 5, 7, 8])).toBe("0-2, 5, 7-8");
    expect(formatShardRanges([3])).toBe("3");
    expect(formatShardRanges([])).toBe("-");
  });
});
