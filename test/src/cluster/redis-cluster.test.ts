import { setTimeout as sleep } from "node:timers/promises";
import { jetstream, jetstreamManager } from "@nats-io/jetstream";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import { agentKinds, defineAgent } from "@troupe/agents";
import { replayActorCommand } from "@troupe/admin";
import { startLocalNatsServer } from "@troupe/dev";
import { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import { testDataDirPrefix } from "../harness/test-run-marker.js";
import { startHostProcess, type HostProcess } from "../support/host-process.js";
import { startRedisClusterGroup } from "../support/redis-cluster-group.js";
import { HANDOVER_HOST, slowToolCalls, type SlowToolCalls } from "../support/slow-tool-calls.js";
import { waitFor } from "../support/wait-for.js";

// Issue #17: every script Troupe runs touches the keys of one shard, under the
// shard's hash tag, so hosts run on a Redis Cluster (three masters here). A
// host is SIGKILLed mid-load and another takes over its shards.

const SHARDS = 16;
const SESSIONS = Array.from({ length: 16 }, (_, index) => `rc-${index}`);

describe("hosts on a Redis Cluster", () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.reverse()) await step().catch(() => undefined);
    cleanup.length = 0;
  });

  it("three masters, a host SIGKILLed mid-load: every run ends, no call runs twice, keys on every master, actors replay", async () => {
    const group = await startRedisClusterGroup();
    cleanup.push(() => group.stop());
    const nats = await startLocalNatsServer({
      shardCount: SHARDS,
      dataDirPrefix: testDataDirPrefix("nats"),
    });
    cleanup.push(() => nats.stop());
    const client: NatsConnection = await connect({ servers: nats.url });
    cleanup.push(() => client.close());
    const toolOf = (session: string) =>
      Number(session.slice(3)) % 2 === 0 ? ("slow_charge" as const) : ("slow_note" as const);
    const calls: SlowToolCalls = await slowToolCalls(client, SESSIONS, toolOf);
    cleanup.push(() => Promise.resolve(calls.stop()));
    const startHost = () =>
      startHostProcess({
        natsUrl: nats.url,
        redisUrl: `redis://127.0.0.1:${group.ports[0]}`,
        entry: HANDOVER_HOST,
        settings: { shardCount: SHARDS },
        env: {
          TROUPE_TEST_TOOL_DIR: calls.toolDir,
          TROUPE_TEST_REDIS_CLUSTER: group.nodes,
          TROUPE_LOG_LEVEL: "info",
        },
        readyTimeoutMs: 90_000,
      });
    const hosts: HostProcess[] = await Promise.all([startHost(), startHost()]);
    cleanup.push(() => Promise.all(hosts.map((host) => host.stop())));

    const js = jetstream(client);
    await calls.sendTo(js, SESSIONS, (index) => 100 * (index % 5));
    await sleep(300 + Math.floor(Math.random() * 500));
    const killedAt = Date.now();
    hosts[0]!.signal("SIGKILL");
    hosts.push(await startHost());
    await calls.waitFinished(90_000);
    const finishedMs = Date.now() - killedAt;

    const outcomes = calls.outcomes();
    const executions = await Promise.all(SESSIONS.map((session) => calls.executions(session)));
    const duplicates = SESSIONS.filter(
      (session, index) => toolOf(session) === "slow_charge" && executions[index]! > 1,
    ).length;
    const redis = group.connect();
    cleanup.push(() => Promise.resolve(redis.disconnect()));
    const keysPerMaster = await Promise.all(
      group.ports.map(async (port) => {
        const node = new Redis({ host: "127.0.0.1", port });
        try {
          return await node.dbsize();
        } finally {
          node.disconnect();
        }
      }),
    );
    console.log(
      `redis cluster: sessions ${SESSIONS.length}, tool executions ${executions.reduce((a, b) => a + b, 0)}, ` +
        `non-idempotent duplicates ${duplicates}, keys per master ${keysPerMaster.join("/")}, ` +
        `all runs ended ${finishedMs} ms after the kill`,
    );
    expect(duplicates).toBe(0);
    expect(keysPerMaster).toHaveLength(3);
    for (const count of keysPerMaster) expect(count).toBeGreaterThan(0);
    for (const session of SESSIONS) {
      const outcome = outcomes.get(session)!;
      expect({ session, ended: outcome.completed + outcome.outcomeUnknown }).toEqual({
        session,
        ended: 1,
      });
    }

    const jsm = await jetstreamManager(client);
    const kinds = agentKinds({
      agents: [defineAgent({ name: "courier", instructions: "-", model: "scripted:demo" })],
    });
    await waitFor(
      async () => {
        for (const session of SESSIONS) {
          const report = await replayActorCommand(
            { redis, jsm, nats: client, shardCount: SHARDS, kinds },
            `session/${session}`,
          );
          if (!report.reproduces) return false;
        }
        return true;
      },
      { timeoutMs: 20_000, description: "every session replays to its stored snapshot" },
    );
  }, 240_000);
});
