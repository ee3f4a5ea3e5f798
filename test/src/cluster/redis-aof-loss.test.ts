import { readFile, readdir, rm, stat, truncate, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { jetstream, jetstreamManager } from "@nats-io/jetstream";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import { agentKinds, defineAgent } from "@troupe/agents";
import { isProcessAlive } from "@troupe/client/internal";
import { replayActorCommand } from "@troupe/admin";
import { startLocalNatsServer, startLocalRedisServer, type LocalServer } from "@troupe/dev";
import { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import { testDataDirPrefix } from "../harness/test-run-marker.js";
import { startHostProcess, type HostProcess } from "../support/host-process.js";
import { HANDOVER_HOST, slowToolCalls, type SlowToolCalls } from "../support/slow-tool-calls.js";
import { waitFor } from "../support/wait-for.js";

// Issue #17: Redis with `appendfsync everysec` can lose the last second of
// writes when its machine crashes. Emulated here: SIGKILL the server, cut the
// append-only file back to its size of a second before, start it again on the
// same port. The lost writes include fencing-token increments, snapshot
// commits, watermarks and idempotency records of started calls. Asserted: no
// non-idempotent call runs twice, every run ends (no actor stays stuck), and
// every actor's stored snapshot is its journal applied exactly once.

const SHARDS = 8;
const ROUNDS = 3;
const PER_ROUND = 6;

describe("a single Redis losing the last second of its AOF", () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.reverse()) await step().catch(() => undefined);
    cleanup.length = 0;
  });

  it("three crashes that lose the AOF's last second mid-load: no call runs twice, every run ends, every actor replays", async () => {
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
    // Restarting on the same port right after a SIGKILL can fail under load
    // (the port not yet free): a few tries, each failure printed.
    const restartRedis = async (port: number): Promise<LocalServer> => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await startRedis(port);
        } catch (error) {
          if (attempt === 3) throw error;
          console.warn(`redis-server restart ${attempt} failed, trying again:`, error);
          await sleep(500);
        }
      }
    };
    let redisServer: LocalServer = await startRedis();
    cleanup.push(() => redisServer.stop());
    const port = Number(new URL(redisServer.url).port);

    // The AOF's increment file, sampled every 100 ms: its size a second before a
    // crash is what an fsync once a second would have kept.
    const incrementFile = async () => {
      const dir = join(storeDir, "appendonlydir");
      const name = (await readdir(dir)).find((file) => file.endsWith(".incr.aof"));
      return name === undefined ? undefined : join(dir, name);
    };
    const sizes: { atMs: number; file: string; size: number }[] = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const file = await incrementFile().catch(() => undefined);
        if (file !== undefined) {
          const size = await stat(file).then(
            (info) => info.size,
            () => undefined,
          );
          if (size !== undefined) sizes.push({ atMs: Date.now(), file, size });
        }
        await sleep(100);
      }
    })();
    cleanup.push(async () => {
      sampling = false;
      await sampler;
    });

    const sessions = Array.from({ length: ROUNDS * PER_ROUND }, (_, index) => `aof-${index}`);
    const client: NatsConnection = await connect({ servers: nats.url });
    cleanup.push(() => client.close());
    const calls: SlowToolCalls = await slowToolCalls(client, sessions, "slow_charge");
    cleanup.push(() => Promise.resolve(calls.stop()));
    const hosts: HostProcess[] = await Promise.all(
      [0, 1].map(() =>
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

    const js = jetstream(client);
    const pauses: number[] = [];
    let lostBytes = 0;
    for (let round = 0; round < ROUNDS; round += 1) {
      const batch = sessions.slice(round * PER_ROUND, (round + 1) * PER_ROUND);
      await calls.sendTo(js, batch, (index) => 150 * index);
      // A random point of the loaded run: calls claimed, running or just recorded.
      await sleep(400 + Math.floor(Math.random() * 1200));
      const crashAt = Date.now();
      process.kill(redisServer.pid, "SIGKILL");
      await waitFor(() => Promise.resolve(!isProcessAlive(redisServer.pid)), {
        timeoutMs: 5_000,
        description: "redis-server gone",
      });
      const before = [...sizes].reverse().find((sample) => sample.atMs <= crashAt - 1_000);
      const file = await incrementFile();
      if (before !== undefined && file === before.file) {
        const size = (await stat(file)).size;
        // Cut at the last whole command within the sampled size: a sample
        // taken mid-write would leave half a command, which redis-server
        // refuses to load ("Bad file format") — an fsync keeps whole writes.
        const keep = lastCommandBoundary(await readFile(file), before.size);
        lostBytes += size - keep;
        await truncate(file, keep);
      }
      // The killed server's own folder (its config; the data is in storeDir).
      await redisServer.stop();
      redisServer = await restartRedis(port);
      pauses.push(Date.now() - crashAt);
    }
    expect(lostBytes).toBeGreaterThan(0);

    await calls.waitFinished(90_000);
    const outcomes = calls.outcomes();
    const executions = new Map<string, number>();
    for (const session of sessions) executions.set(session, await calls.executions(session));
    const duplicates = [...executions.values()].filter((count) => count > 1).length;
    const unknown = [...outcomes.values()].filter((outcome) => outcome.outcomeUnknown > 0).length;
    console.log(
      `redis AOF loss: ${ROUNDS} crashes, ${lostBytes} AOF bytes lost, sessions ${sessions.length}, ` +
        `tool executions ${[...executions.values()].reduce((a, b) => a + b, 0)}, duplicates ${duplicates}, ` +
        `outcome unknown ${unknown}, Redis down ${pauses.join("/")} ms`,
    );
    expect(duplicates).toBe(0);
    for (const session of sessions) {
      const outcome = outcomes.get(session)!;
      const count = executions.get(session)!;
      // Every call ended once: with the tool's result when it ran, else as outcome unknown.
      expect({ session, ended: outcome.completed + outcome.outcomeUnknown }).toEqual({
        session,
        ended: 1,
      });
      if (outcome.completed === 1) expect({ session, count }).toEqual({ session, count: 1 });
    }
    // The hosts noticed the loss and started their shards again: a renewal
    // finds the commits its grant counted gone ("Redis lost commits"), or,
    // when the lost second held the lease itself, the lease is gone. Which one
    // a crash shows depends on what its lost second held.
    const output = hosts.map((host) => host.stdout()).join("");
    expect(output).toMatch(
      /Redis lost commits of this shard|lease lost; stopped processing the shard/,
    );

    // Exactly once: every actor's stored snapshot is its journal replayed.
    const redis = new Redis(redisServer.url);
    cleanup.push(() => Promise.resolve(redis.disconnect()));
    const jsm = await jetstreamManager(client);
    // The machines replay from the journal alone; the agent list only has to be valid.
    const kinds = agentKinds({
      agents: [defineAgent({ name: "courier", instructions: "-", model: "scripted:demo" })],
    });
    for (const session of sessions) {
      for (const actor of [`session/${session}`, `run/${session}`]) {
        const report = await replayActorCommand(
          { redis, jsm, nats: client, shardCount: SHARDS, kinds },
          actor,
        );
        expect({ actor, reproduces: report.reproduces }).toEqual({ actor, reproduces: true });
      }
    }
  }, 240_000);
});

/**
 * The end of the last whole RESP command (`*<n>\r\n` then n times
 * `$<len>\r\n<bytes>\r\n`, as the AOF stores commands) at or before `limit`.
 *
 * @param aof - the AOF increment file's bytes.
 * @param limit - a byte offset.
 * @returns the offset to truncate at (0 when no command ends before `limit`).
 */
function lastCommandBoundary(aof: Buffer, limit: number): number {
  const lineEnd = (from: number) => {
    const end = aof.indexOf("\r\n", from);
    return end < 0 ? aof.length : end;
  };
  let boundary = 0;
  let at = 0;
  while (at < aof.length && aof[at] === 0x2a /* * */) {
    let end = lineEnd(at);
    const args = Number(aof.subarray(at + 1, end).toString());
    at = end + 2;
    for (let arg = 0; arg < args && at < aof.length; arg++) {
      end = lineEnd(at);
      const length = Number(aof.subarray(at + 1, end).toString());
      at = end + 2 + length + 2;
    }
    if (at > limit || at > aof.length) break;
    boundary = at;
  }
  return boundary;
}
