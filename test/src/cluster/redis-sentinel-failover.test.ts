import { setTimeout as sleep } from "node:timers/promises";
import { jetstream } from "@nats-io/jetstream";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import { startLocalNatsServer } from "@troupe/dev";
import { afterEach, describe, expect, it } from "vitest";
import { testDataDirPrefix } from "../harness/test-run-marker.js";
import { startHostProcess, type HostProcess } from "../support/host-process.js";
import { SENTINEL_MASTER_NAME, startSentinelGroup } from "../support/redis-sentinel-group.js";
import { HANDOVER_HOST, slowToolCalls, type SlowToolCalls } from "../support/slow-tool-calls.js";
import { waitFor } from "../support/wait-for.js";

// Issue #17: a Redis master killed at a random point of a loaded run while its
// replica lags behind (asynchronous replication: the promoted replica lacks the
// master's last writes), with a zombie host (SIGSTOP past its leases, SIGCONT
// after the failover) that still believes it owns its shards. Asserted: no
// non-idempotent call runs twice, every run ends, the zombie's stale writes are
// refused.

const SHARDS = 8;
const SESSIONS = Array.from({ length: 12 }, (_, index) => `sentinel-${index}`);

describe("Redis Sentinel failover with a zombie host", () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.reverse()) await step().catch(() => undefined);
    cleanup.length = 0;
  });

  it("the master dies with a lagging replica and a paused host: no call runs twice, every run ends", async () => {
    const group = await startSentinelGroup();
    cleanup.push(() => group.stop());
    const nats = await startLocalNatsServer({
      shardCount: SHARDS,
      dataDirPrefix: testDataDirPrefix("nats"),
    });
    cleanup.push(() => nats.stop());
    const client: NatsConnection = await connect({ servers: nats.url });
    cleanup.push(() => client.close());
    const calls: SlowToolCalls = await slowToolCalls(client, SESSIONS, "slow_charge");
    cleanup.push(() => Promise.resolve(calls.stop()));
    const [masterPort, replicaPort] = group.dataPorts;
    const hosts: HostProcess[] = await Promise.all(
      [0, 1, 2].map(() =>
        startHostProcess({
          natsUrl: nats.url,
          // Unused: the host asks the sentinels for the master.
          redisUrl: `redis://127.0.0.1:${masterPort}`,
          entry: HANDOVER_HOST,
          settings: { shardCount: SHARDS },
          env: {
            TROUPE_TEST_TOOL_DIR: calls.toolDir,
            TROUPE_TEST_REDIS_SENTINELS: group.sentinelAddresses,
            TROUPE_TEST_REDIS_MASTER: SENTINEL_MASTER_NAME,
            TROUPE_LOG_LEVEL: "info",
          },
          readyTimeoutMs: 90_000,
        }),
      ),
    );
    cleanup.push(() => Promise.all(hosts.map((host) => host.stop())));
    const zombie = hosts[0]!;

    // Half the calls, then the zombie stops; the replica stops too, so the
    // master's writes from now on never reach it.
    const js = jetstream(client);
    const send = (sessions: readonly string[]) =>
      calls.sendTo(js, sessions, (index) => 200 * (index % 4));
    await send(SESSIONS.slice(0, 6));
    await sleep(300 + Math.floor(Math.random() * 600));
    zombie.signal("SIGSTOP");
    group.signal(replicaPort, "SIGSTOP");
    cleanup.push(() => Promise.resolve(zombie.signal("SIGCONT")));
    await send(SESSIONS.slice(6));
    // A random point of the load: the master has writes its replica lacks.
    await sleep(800 + Math.floor(Math.random() * 1200));
    const killedAt = Date.now();
    group.kill(masterPort);
    group.signal(replicaPort, "SIGCONT");
    await waitFor(async () => (await group.masterPort().catch(() => masterPort)) === replicaPort, {
      timeoutMs: 30_000,
      description: "the sentinels promoted the replica",
    });
    const failoverMs = Date.now() - killedAt;
    // The zombie wakes after the failover, past its leases, with its old view.
    zombie.signal("SIGCONT");

    await calls.waitFinished(90_000);
    const outcomes = calls.outcomes();
    const executions = await Promise.all(SESSIONS.map((session) => calls.executions(session)));
    const duplicates = executions.filter((count) => count > 1).length;
    const unknown = [...outcomes.values()].filter((outcome) => outcome.outcomeUnknown > 0).length;
    const output = hosts.map((host) => host.stdout()).join("");
    const lostCommits = output.match(/Redis lost commits of this shard/g)?.length ?? 0;
    const lostLeases = output.match(/"msg":"lease lost/g)?.length ?? 0;
    console.log(
      `redis sentinel failover: sessions ${SESSIONS.length}, tool executions ${executions.reduce((a, b) => a + b, 0)}, ` +
        `duplicates ${duplicates}, outcome unknown ${unknown}, failover ${failoverMs} ms, ` +
        `shards restarted: ${lostLeases} for a lost lease, ${lostCommits} for lost commits`,
    );
    // The promoted replica lacked the last writes (its leases had lapsed by then,
    // or it lacked commits of a live one): the hosts started those shards again
    // from the stored watermarks.
    expect(lostLeases + lostCommits).toBeGreaterThan(0);
    // The zombie woke up without its leases.
    expect(zombie.stdout()).toMatch(/lease lost|Redis lost commits/);
    expect(duplicates).toBe(0);
    for (const [index, session] of SESSIONS.entries()) {
      const outcome = outcomes.get(session)!;
      expect({ session, ended: outcome.completed + outcome.outcomeUnknown }).toEqual({
        session,
        ended: 1,
      });
      if (outcome.completed === 1) {
        expect({ session, count: executions[index] }).toEqual({ session, count: 1 });
      }
    }
    for (const host of hosts) expect(host.child.exitCode).toBeNull();
  }, 240_000);
});
