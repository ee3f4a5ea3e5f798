import { AGENT_MACHINES_VERSION, agentKinds, defineAgent } from "@troupe/agents";
import { InvalidAddressError, parseAddress, shardOf } from "@troupe/protocol";
import {
  clusterStatus,
  inspectActor,
  replayActorCommand,
  type AdminDeps,
  type ClusterStatus,
} from "@troupe/admin";
import {
  formatActorInspection,
  formatClusterStatus,
  formatReplayReport,
} from "@troupe/admin/internal";
import { readDeployment } from "@troupe/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCluster, type Cluster } from "../support/cluster.js";
import type { HostProcess } from "../support/host-process.js";
import { sendUntilIdle } from "../support/session-events.js";
import { waitFor } from "../support/wait-for.js";

const AGENT_HOST = "test/src/fixtures/agent-host.ts";
const SHARD_COUNT = 8;
// The same agent as test/src/fixtures/agent-host.ts: replay must run the same step.
const demo = defineAgent({
  name: "demo",
  instructions: "You are the Troupe demo agent.",
  model: "scripted:demo",
});

describe("admin read side: inspect, status and replay against a live agent host", () => {
  let cluster: Cluster;
  let host: HostProcess;
  let deps: AdminDeps;
  const sessionId = "admin-1";

  beforeAll(async () => {
    cluster = await startCluster({ shardCount: SHARD_COUNT });
    host = await cluster.startOnlyHost(AGENT_HOST);
    await sendUntilIdle(cluster, sessionId, "hello");
    const deployment = await readDeployment(cluster.redis);
    deps = { redis: cluster.redis, jsm: cluster.jsm, shardCount: deployment?.shardCount ?? 0 };
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  it("readDeployment returns the shard count the host recorded, and nothing for another prefix", async () => {
    expect(await readDeployment(cluster.redis)).toEqual({ shardCount: SHARD_COUNT });
    expect(await readDeployment(cluster.redis, "nobody-here")).toBeUndefined();
  });

  it("inspecting a session after its run shows its shard, the owning host's lease and its snapshot generations", async () => {
    const address = `session/${sessionId}`;
    const inspection = await inspectActor(deps, address);
    expect(inspection.exists).toBe(true);
    expect(inspection.address).toBe(address);
    expect(inspection.shard).toBe(shardOf(parseAddress(address), SHARD_COUNT));
    expect(inspection.lease.owner).toBe(host.hostId);
    expect(inspection.lease.fencingToken).toBeGreaterThanOrEqual(1);
    expect(inspection.lease.remainingMs).toBeGreaterThan(0);
    expect(inspection.lastFencingToken).toBe(inspection.lease.fencingToken);
    const [latest, ...earlier] = inspection.generations;
    expect(latest?.latest).toBe(true);
    expect(latest?.generation).toBeGreaterThanOrEqual(1);
    expect(latest?.machineVersion).toBe(AGENT_MACHINES_VERSION);
    expect(latest?.status).toBe("active");
    expect(latest?.stateValue).not.toBeNull();
    expect(latest?.eventSeq).toBeGreaterThanOrEqual(1);
    expect(latest?.inboxSeq).toBeGreaterThan(0);
    expect(latest?.effects).toEqual([]);
    // Kept earlier generations count down from the latest, at most keepGenerations (3) of them.
    expect(earlier.map((generation) => generation.generation)).toEqual(
      earlier.map((_, index) => (latest?.generation ?? 0) - 1 - index),
    );
    expect(earlier.length).toBeLessThanOrEqual(3);
    expect(inspection.notes).toEqual([]);
    // Plain data: a JSON round trip changes nothing.
    expect(JSON.parse(JSON.stringify(inspection))).toEqual(inspection);
    const text = formatActorInspection(inspection);
    expect(text).toContain(`lease       ${host.hostId} (token ${inspection.lease.fencingToken}`);
    expect(text).toMatch(
      new RegExp(`^\\s*${latest?.generation}  latest  ${AGENT_MACHINES_VERSION}\\s+active`, "m"),
    );
  });

  it("inspecting an actor that was never written gives exists: false, and invalid text an InvalidAddressError", async () => {
    const inspection = await inspectActor(deps, "session/never-seen");
    expect(inspection.exists).toBe(false);
    expect(inspection.generations).toEqual([]);
    expect(inspection.shard).toBe(shardOf({ kind: "session", id: "never-seen" }, SHARD_COUNT));
    expect(inspection.lease.owner).toBe(host.hostId);
    expect(inspection.outboxConfirmed).toBeUndefined();
    await expect(inspectActor(deps, "not-an-address")).rejects.toSatisfy((error) =>
      InvalidAddressError.isInstance(error),
    );
  });

  it("cluster status lists the only host owning every shard, with no inbox lag once idle", async () => {
    let status: ClusterStatus | undefined;
    await waitFor(
      async () => {
        status = await clusterStatus(deps);
        return status.totals.inboxLag === 0;
      },
      { timeoutMs: 10_000, description: "inbox lag 0" },
    );
    expect(status?.hosts).toHaveLength(1);
    expect(status?.hosts[0]).toMatchObject({
      hostId: host.hostId,
      alive: true,
      shards: [0, 1, 2, 3, 4, 5, 6, 7],
    });
    expect(status?.hosts[0]?.lastHeartbeatAgeMs).toBeLessThan(2000);
    expect(status?.shards).toHaveLength(SHARD_COUNT);
    for (const shard of status?.shards ?? []) {
      expect(shard.owner).toBe(host.hostId);
      expect(shard.fencingToken).toBeGreaterThanOrEqual(1);
      expect(shard.consumer).toBe(true);
      expect(shard.inboxLag).toBe(0);
    }
    expect(status?.totals).toMatchObject({
      liveHosts: 1,
      ownedShards: SHARD_COUNT,
      freeShards: 0,
      inboxLag: 0,
      shardsWithUnknownLag: 0,
      deadLetters: 0,
    });
    expect(status?.streams.inbox.messages).toBeGreaterThan(0);
    expect(status?.streams.events.messages).toBeGreaterThan(0);
    expect(JSON.parse(JSON.stringify(status))).toEqual(status);
    const text = formatClusterStatus(status!);
    expect(text).toContain(`${host.hostId}  live`);
    expect(text).toContain("0-7");
  });

  it("replaying the session's journal reproduces its stored snapshot", async () => {
    const options = {
      ...deps,
      nats: cluster.nats,
      kinds: agentKinds({ agents: [demo] }),
    };
    const report = await replayActorCommand(options, `session/${sessionId}`);
    const inspection = await inspectActor(deps, `session/${sessionId}`);
    expect(report).toMatchObject({
      actor: `session/${sessionId}`,
      reproduces: true,
      storedGeneration: inspection.generations[0]?.generation,
      replayedGeneration: inspection.generations[0]?.generation,
      difference: undefined,
    });
    // The session's journal: the user.message, the agent.resolve result and its run's run.finished.
    expect(report.messagesReplayed).toBe(3);
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
    expect(formatReplayReport(report)).toContain("yes, the journal reproduces the stored snapshot");
    // The run actor's journal (its model call's result included) reproduces too.
    const run = await replayActorCommand(options, `run/${sessionId}`);
    expect(run.reproduces).toBe(true);
    expect(run.storedGeneration).toBeGreaterThanOrEqual(1);
  });

  it("replay refuses a kind the given kinds do not define", async () => {
    await expect(replayActorCommand({ ...deps, kinds: [] }, "counter/c1")).rejects.toSatisfy(
      (error) => InvalidAddressError.isInstance(error),
    );
  });

  it("with its only host stopped, status shows every shard free and a message sent meanwhile as inbox lag", async () => {
    await host.stop();
    await cluster.js.publish(
      `troupe.session.${sessionId}.in`,
      new TextEncoder().encode('{"type":"user.message","text":"anyone there?"}'),
    );
    const status = await clusterStatus(deps);
    expect(status.totals).toMatchObject({ liveHosts: 0, ownedShards: 0, freeShards: SHARD_COUNT });
    const shard = shardOf({ kind: "session", id: sessionId }, SHARD_COUNT);
    expect(status.shards[shard]).toMatchObject({ owner: undefined, consumer: true, inboxLag: 1 });
    expect(status.totals.inboxLag).toBe(1);
    expect(status.hosts).toEqual([]);
    const inspection = await inspectActor(deps, `session/${sessionId}`);
    expect(inspection.lease).toEqual({
      owner: undefined,
      fencingToken: undefined,
      remainingMs: undefined,
    });
    expect(inspection.lastFencingToken).toBe(1);
    expect(formatActorInspection(inspection)).toContain(
      "lease       free (no host holds the shard)",
    );
  });
});
