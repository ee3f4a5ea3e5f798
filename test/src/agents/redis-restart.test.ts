import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import { jetstream } from "@nats-io/jetstream";
import { startLocalNatsServer, startLocalRedisServer, type LocalServer } from "@troupe/dev";
import { RedisKeys } from "@troupe/protocol/internal";
import { RedisLeaseStore } from "@troupe/runtime/internal";
import { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import { testDataDirPrefix } from "../harness/test-run-marker.js";
import { startHostProcess, type HostProcess } from "../support/host-process.js";
import {
  HANDOVER_HOST,
  expectEveryCallCompletedOnce,
  slowToolCalls,
  type SlowToolCalls,
} from "../support/slow-tool-calls.js";
import { waitFor } from "../support/wait-for.js";

// Issue #11: a Redis restart (down longer than the lease TTL) must not make one
// host take every shard when Redis is back, must not print ioredis's
// "Unhandled error event", and a tool call that finished while Redis was down
// (its host lost the shard's lease meanwhile) is reused by the next owner
// rather than reported as outcome unknown.

const SHARDS = 16;
const HOSTS = 3;
const FAIR_SHARE_PLUS_ONE = Math.ceil(SHARDS / HOSTS) + 1;
const SESSIONS = Array.from({ length: 6 }, (_, index) => `restart-${index}`);

describe("Redis restarted mid-load", () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.reverse()) await step().catch(() => undefined);
    cleanup.length = 0;
  });

  it("no host ever holds more than its fair share + 1 shards, nothing prints an unhandled Redis error, and a call that finished during the outage is reused", async () => {
    // Redis with an append-only file in a folder that outlives the server, so a
    // restart on the same port comes back with the same data.
    const storeDir = await mkdtemp(join(tmpdir(), testDataDirPrefix("redis")));
    cleanup.push(() => rm(storeDir, { recursive: true, force: true }));
    const nats = await startLocalNatsServer({
      shardCount: SHARDS,
      dataDirPrefix: testDataDirPrefix("nats"),
    });
    cleanup.push(() => nats.stop());
    const startRedis = (port?: number) =>
      startLocalRedisServer({
        appendOnly: true,
        storeDir,
        dataDirPrefix: testDataDirPrefix("redis"),
        ...(port === undefined ? {} : { port }),
      });
    let redisServer: LocalServer = await startRedis();
    cleanup.push(() => redisServer.stop());
    const port = Number(new URL(redisServer.url).port);

    const client: NatsConnection = await connect({ servers: nats.url });
    cleanup.push(() => client.close());
    const redis = new Redis(redisServer.url, { maxRetriesPerRequest: 0, retryStrategy: () => 50 });
    redis.on("error", () => undefined);
    cleanup.push(() => Promise.resolve(redis.disconnect()));
    const leases = new RedisLeaseStore(redis, new RedisKeys("troupe"));

    const calls: SlowToolCalls = await slowToolCalls(client, SESSIONS, "slow_charge");
    cleanup.push(() => Promise.resolve(calls.stop()));
    const hosts: HostProcess[] = await Promise.all(
      Array.from({ length: HOSTS }, () =>
        startHostProcess({
          natsUrl: nats.url,
          redisUrl: redisServer.url,
          entry: HANDOVER_HOST,
          settings: { shardCount: SHARDS },
          env: { TROUPE_TEST_TOOL_DIR: calls.toolDir, TROUPE_LOG_LEVEL: "info" },
          readyTimeoutMs: 90_000,
        }),
      ),
    );
    cleanup.push(() => Promise.all(hosts.map((host) => host.stop())));
    const ids = hosts.map((host) => host.hostId);

    // Sample the lease owners every 50 ms from the outage on (nothing while Redis is down).
    const most = new Map<string, number>();
    let samples = 0;
    let recording = false;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        try {
          const counts = new Map<string, number>();
          for (const { owner } of await leases.holders(SHARDS)) {
            if (owner !== undefined) counts.set(owner, (counts.get(owner) ?? 0) + 1);
          }
          if (recording) {
            for (const [owner, count] of counts) {
              most.set(owner, Math.max(most.get(owner) ?? 0, count));
            }
            samples += 1;
          }
        } catch {
          // Redis is down.
        }
        await sleep(50);
      }
    })();
    cleanup.push(async () => {
      sampling = false;
      await sampler;
    });
    const balanced = async () => {
      const owners = (await leases.holders(SHARDS)).map((holder) => holder.owner);
      return ids.every((id) => owners.filter((owner) => owner === id).length >= SHARDS / HOSTS - 1);
    };
    await waitFor(balanced, { timeoutMs: 20_000, description: "three hosts sharing the shards" });

    await calls.send(jetstream(client), 2500);
    await calls.waitStarted(20_000);
    await waitFor(balanced, { timeoutMs: 20_000, description: "three hosts sharing the shards" });
    recording = true;
    // Down for longer than the lease TTL (2 s): every host loses its leases while
    // its calls are still running; the calls finish about 2.5 s into the outage.
    await redisServer.stop();
    await sleep(4000);
    expect(await Promise.all(SESSIONS.map((session) => calls.executions(session)))).toEqual(
      SESSIONS.map(() => 1),
    );
    redisServer = await startRedis(port);

    await calls.waitFinished(45_000);
    await waitFor(balanced, { timeoutMs: 20_000, description: "the shards shared again" });
    // A few more samples after the rebalance.
    const samplesBalanced = samples;
    await waitFor(() => samples >= samplesBalanced + 10, {
      timeoutMs: 20_000,
      description: "ten more samples of the lease holders",
    });
    sampling = false;
    await sampler;

    await expectEveryCallCompletedOnce(calls);
    expect(samples).toBeGreaterThan(20);
    for (const id of ids) {
      expect({ id, most: most.get(id) ?? 0 }).toEqual({
        id,
        most: Math.min(most.get(id) ?? 0, FAIR_SHARE_PLUS_ONE),
      });
    }
    // The hosts did lose their leases with calls still running (the case under test)…
    const output = hosts.map((host) => host.stdout()).join("");
    expect(output).toMatch(/"runningEffects":[1-9][0-9]*,"msg":"lease lost/);
    for (const host of hosts) {
      expect(host.child.exitCode).toBeNull();
      expect(host.stderr()).not.toMatch(/Unhandled error event/);
      // …and each reported the outage once, and the recovery.
      expect(host.stdout().match(/redis unreachable; reconnecting/g)).toHaveLength(1);
      expect(host.stdout()).toMatch(/redis reachable again/);
    }
  }, 240_000); // the sum of its waits: on a loaded machine a wait fails with its description first
});
