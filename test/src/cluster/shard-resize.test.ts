/**
 * Raising the shard count of a live deployment (issue #17, docs/decisions/0035):
 * two host processes at 4 shards under steady load, `changeShardCount` to 8
 * mid-load (nats-server reloaded with the new mapping by SIGHUP), new hosts at
 * 8 shards. Every message carries its actor's sequence number, so the counter
 * records any duplicate, gap or reordering.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { jetstream, jetstreamManager } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";
import { startLocalNatsServer, startLocalRedisServer } from "@troupe/dev";
import { parseAddress } from "@troupe/protocol";
import { RedisKeys, streamNames } from "@troupe/protocol/internal";
import {
  ActorHost,
  ShardCountChangingError,
  ShardCountMismatchError,
  changeShardCount,
  replayActor,
  type ShardCountChange,
} from "@troupe/runtime";
import { RedisSnapshotStore } from "@troupe/runtime/internal";
import { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import { counterKind, type CounterContext } from "../fixtures/counter-machine.js";
import { testDataDirPrefix } from "../harness/test-run-marker.js";
import { capturingLogger } from "../support/capturing-logger.js";
import { startHostProcess, type HostProcess } from "../support/host-process.js";
import { sendToInbox } from "../support/send-to-inbox.js";
import { waitFor } from "../support/wait-for.js";

const FROM = 4;
const TO = 8;
const ACTORS = Array.from({ length: 24 }, (_, index) => `counter/resize-${index}`);
const TIMER_ACTORS = Array.from({ length: 6 }, (_, index) => `counter/resize-timer-${index}`);
const TIMER_DELAY_MS = 8_000;

describe("raising the shard count of a live deployment", () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.reverse()) await step().catch(() => undefined);
    cleanup.length = 0;
  });

  it("4 → 8 under load: no message lost or applied twice, each actor's order kept, timers armed before fire once", async () => {
    const natsServer = await startLocalNatsServer({
      shardCount: FROM,
      dataDirPrefix: testDataDirPrefix("nats"),
    });
    cleanup.push(() => natsServer.stop());
    const redisServer = await startLocalRedisServer({ dataDirPrefix: testDataDirPrefix("redis") });
    cleanup.push(() => redisServer.stop());
    const nats = await connect({ servers: natsServer.url });
    cleanup.push(() => nats.close());
    const redis = new Redis(redisServer.url);
    cleanup.push(() => redis.quit());
    const js = jetstream(nats);
    const keys = new RedisKeys("troupe");
    // An actor's keys carry its shard's hash tag (decision 0031): read them
    // under the count the deployment has now (the change moves them).
    const snapshotsNow = async () =>
      new RedisSnapshotStore(
        redis,
        new RedisKeys(
          "troupe",
          Number((await redis.hget(keys.deployment(), "shardCount")) ?? FROM),
        ),
      );
    const hosts: HostProcess[] = [];
    cleanup.push(() => Promise.all(hosts.map((host) => host.stop())));
    const startHost = async (shardCount: number) => {
      const host = await startHostProcess({
        natsUrl: natsServer.url,
        redisUrl: redisServer.url,
        settings: { shardCount },
        readyTimeoutMs: 60_000,
      });
      hosts.push(host);
      return host;
    };
    const startInProcess = (shardCount: number) =>
      ActorHost.start({
        nats: natsServer.url,
        redis: redisServer.url,
        kinds: [counterKind],
        settings: { shardCount },
        logger: capturingLogger().logger,
      });
    const send = (actor: string, type: string, payload: Record<string, unknown>, id: string) =>
      sendToInbox(js, actor, type, payload, id);
    const context = async (actor: string) =>
      (
        (await (await snapshotsNow()).load(actor))?.record.state as
          { context: CounterContext } | undefined
      )?.context;
    const pendingTimers = async (shardCount: number) => {
      let total = 0;
      for (let shard = 0; shard < shardCount; shard += 1) {
        total += await redis.zcard(keys.timers(shard));
      }
      return total;
    };

    const oldHosts = await Promise.all([startHost(FROM), startHost(FROM)]);

    // Durable timers armed before the change, due while it is under way.
    await Promise.all(
      TIMER_ACTORS.map((actor) =>
        send(actor, "counter.schedule", { delayMs: TIMER_DELAY_MS }, `${actor}:schedule`),
      ),
    );
    await waitFor(async () => (await pendingTimers(FROM)) === TIMER_ACTORS.length, {
      timeoutMs: 20_000,
      description: "every timer armed",
    });

    // Steady load: rounds of one step message per actor, each numbered per actor.
    let rounds = 0;
    let sentDuringChange = 0;
    let changing = false;
    let loading = true;
    const load = (async () => {
      while (loading) {
        const n = rounds + 1;
        await Promise.all(
          ACTORS.map((actor) => send(actor, "counter.step", { n }, `${actor}:step:${n}`)),
        );
        rounds = n;
        if (changing) sentDuringChange += ACTORS.length;
        await sleep(40);
      }
    })();
    cleanup.push(() => {
      loading = false;
      return load;
    });
    await waitFor(async () => ((await context(ACTORS[0] ?? ""))?.lastStep ?? 0) >= 5, {
      timeoutMs: 20_000,
      description: "the load is being processed",
    });

    const changeStartedAt = Date.now();
    changing = true;
    let refusal: unknown;
    const change: ShardCountChange = await changeShardCount({
      nats,
      redis,
      to: TO,
      reload: async () => {
        // Every shard is paused now: a host started meanwhile refuses.
        refusal = await startInProcess(FROM).then(
          () => undefined,
          (error: unknown) => error,
        );
        await natsServer.reloadWithShardCount(TO);
      },
      pauseTimeoutMs: 30_000,
      mappingTimeoutMs: 10_000,
    });
    expect(refusal).toBeInstanceOf(ShardCountChangingError);
    expect((refusal as ShardCountChangingError).message).toMatch(
      /shard count is being changed from 4 to 8/,
    );
    expect(change).toMatchObject({ from: FROM, to: TO });
    // Messages published while processing was paused lie between W and S: the
    // new shards must pick them out of the old shards' subjects.
    expect(change.markerSeq - change.catchUpFrom).toBeGreaterThan(ACTORS.length);
    expect(change.movedTimers).toBeGreaterThan(0);
    expect(await redis.hget(keys.deployment(), "shardCount")).toBe(String(TO));
    // The old hosts hold nothing now (and say they must be restarted).
    await waitFor(async () => (await redis.keys("troupe:{*}:lease")).length === 0, {
      timeoutMs: 10_000,
      description: "no lease held after the change",
    });

    // The new hosts run in this process (a host process takes ~20 s to start on
    // a loaded box); the old ones are processes.
    const newHosts = await Promise.all([startInProcess(TO), startInProcess(TO)]);
    cleanup.push(() => Promise.all(newHosts.map((host) => host.stop())));
    const pauseMs = Date.now() - changeStartedAt;
    changing = false;
    await Promise.all(oldHosts.map((host) => host.stop()));
    // A host with the old count refuses to start now.
    await expect(startInProcess(FROM)).rejects.toBeInstanceOf(ShardCountMismatchError);
    // Only the new hosts ever own a shard from now on; together they own all 8.
    const newIds = newHosts.map((host) => host.hostId);
    const oldOwners = new Set<string>();
    await waitFor(
      async () => {
        const owners = await Promise.all(
          Array.from({ length: TO }, (_, shard) => redis.hget(keys.lease(shard), "owner")),
        );
        for (const owner of owners)
          if (owner !== null && !newIds.includes(owner)) oldOwners.add(owner);
        return owners.every((owner) => owner !== null && newIds.includes(owner));
      },
      { timeoutMs: 20_000, description: "the new hosts own every shard" },
    );
    expect([...oldOwners]).toEqual([]);

    // Some load after the change, then everything must be applied exactly once, in order.
    const roundsAtSwitch = rounds;
    await waitFor(() => rounds >= roundsAtSwitch + 10, {
      timeoutMs: 30_000,
      description: "ten more rounds sent",
    });
    loading = false;
    await load;
    expect(sentDuringChange).toBeGreaterThan(0);
    await waitFor(
      async () =>
        (await Promise.all(ACTORS.map(context))).every((state) => state?.lastStep === rounds),
      { timeoutMs: 30_000, description: `every actor at step ${rounds}` },
    );
    const states = await Promise.all(ACTORS.map(context));
    process.stderr.write(
      `shard-resize: ${rounds * ACTORS.length} step messages sent (${sentDuringChange} during the change), ` +
        `${states.reduce((sum, state) => sum + (state?.lastStep ?? 0), 0)} applied, ` +
        `${states.reduce((sum, state) => sum + (state?.stepErrors?.length ?? 0), 0)} out of order or twice; ` +
        `processing paused for at most ${pauseMs} ms (change ${FROM} → ${TO} until the new hosts were ready)\n`,
    );
    for (const actor of ACTORS) {
      const state = await context(actor);
      expect({ actor, lastStep: state?.lastStep, errors: state?.stepErrors }).toEqual({
        actor,
        lastStep: rounds,
        errors: undefined,
      });
    }

    await waitFor(
      async () =>
        (await Promise.all(TIMER_ACTORS.map(context))).every((state) => state?.alarms === 1),
      { timeoutMs: 30_000, description: "every timer fired" },
    );
    expect(await pendingTimers(TO)).toBe(0);
    for (const actor of TIMER_ACTORS) expect((await context(actor))?.alarms).toBe(1);

    // The journal of an actor that lived through the change replays to its
    // snapshot: its messages under the old shard number are read too.
    const replayed = await replayActor(
      {
        js,
        jsm: await jetstreamManager(nats),
        streams: streamNames("troupe"),
        shardCount: TO,
        earlierShardCounts: [FROM],
        snapshots: await snapshotsNow(),
        definition: counterKind,
      },
      parseAddress(ACTORS[0] ?? ""),
    );
    expect(replayed).toMatchObject({ reproduces: true, messagesRead: rounds });
  }, 120_000);
});
