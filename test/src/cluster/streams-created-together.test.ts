/**
 * Hosts starting together create the deployment's streams together: every
 * `ensureStreams` call must succeed whichever host's add the server takes
 * (a clean-clone CI run saw "subjects overlap with an existing stream" when
 * three hosts started at once).
 */
import { jetstreamManager } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";
import type { StreamNames } from "@troupe/protocol";
import { ensureStreams } from "@troupe/runtime/internal";
import { describe, expect, it } from "vitest";
import { startCluster } from "../support/cluster.js";

const retention = {
  journalRetentionMs: 3_600_000,
  eventRetentionMs: 3_600_000,
  transcriptRetentionMs: 0,
  duplicateWindowMs: 120_000,
};

const streamList = (names: StreamNames): string[] => [
  names.inbox,
  names.events,
  names.deltas,
  names.deadLetter,
  names.transcript,
  names.claims,
];

describe("streams created by hosts starting together", () => {
  it("six hosts' concurrent ensureStreams on an empty server all succeed, five times over, leaving one stream of each", async () => {
    await using cluster = await startCluster({ shardCount: 2 });
    // One connection per "host", as separate processes have: the server serves
    // their requests concurrently.
    const connections = await Promise.all(
      Array.from({ length: 6 }, () => connect({ servers: cluster.servers.natsUrl })),
    );
    try {
      const managers = await Promise.all(connections.map((nats) => jetstreamManager(nats)));
      for (let round = 0; round < 5; round += 1) {
        for (const name of streamList(cluster.streams)) {
          await cluster.jsm.streams.delete(name).catch(() => false);
        }
        const results = await Promise.allSettled(
          managers.map((manager) => ensureStreams(manager, cluster.streams, retention)),
        );
        expect(results.filter((result) => result.status === "rejected")).toEqual([]);
      }
    } finally {
      await Promise.all(connections.map((nats) => nats.close()));
    }
    const names: string[] = [];
    for await (const info of cluster.jsm.streams.list()) names.push(info.config.name);
    for (const name of streamList(cluster.streams)) {
      expect(names.filter((stored) => stored === name)).toHaveLength(1);
    }
    const inbox = await cluster.jsm.streams.info(cluster.streams.inbox);
    expect(inbox.config.max_age).toBe(3_600_000 * 1_000_000);
  }, 60_000);
});
