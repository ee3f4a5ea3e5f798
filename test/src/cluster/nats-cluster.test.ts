import { setTimeout as sleep } from "node:timers/promises";
import { jetstream, jetstreamManager, type JetStreamManager } from "@nats-io/jetstream";
import { connect, headers, type NatsConnection } from "@nats-io/transport-node";
import { startLocalNatsServer, startLocalRedisServer, type LocalServer } from "@troupe/dev";
import { checkNats } from "@troupe/host";
import {
  decodeEvent,
  encodeMessage,
  inboxSubject,
  parseAddress,
  streamNames,
  type StreamNames,
} from "@troupe/protocol";
import { RedisKeys } from "@troupe/protocol/internal";
import { StreamSettingsRefusedError } from "@troupe/runtime";
import { ensureStreams, RedisLeaseStore, RedisSnapshotStore } from "@troupe/runtime/internal";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { counterEventSchemas } from "../fixtures/counter-machine.js";
import { testDataDirPrefix } from "../harness/test-run-marker.js";
import { startHostProcess, type HostProcess } from "../support/host-process.js";
import { startNatsCluster, type NatsCluster } from "../support/nats-cluster.js";
import { readStream, type StoredMessage } from "../support/read-stream.js";
import { waitFor } from "../support/wait-for.js";

// Issue #17: Troupe on a 3-node JetStream cluster (three nats-server processes
// on loopback, routed): stream replicas applied on update, refused when the
// servers cannot give them, and the INBOX stream's leader killed mid-load.

const shardCount = 8;
const retention = {
  journalRetentionMs: 3_600_000,
  eventRetentionMs: 3_600_000,
  transcriptRetentionMs: 0,
  duplicateWindowMs: 120_000,
};

describe("Troupe on a 3-node JetStream cluster (issue #17)", () => {
  let cluster: NatsCluster;
  let redisServer: LocalServer;
  let nats: NatsConnection;
  let jsm: JetStreamManager;
  let redis: Redis;
  const streams: StreamNames = streamNames("troupe");
  const allStreams: string[] = [
    streams.inbox,
    streams.events,
    streams.deltas,
    streams.deadLetter,
    streams.transcript,
  ];
  const hosts: HostProcess[] = [];

  beforeAll(async () => {
    // Both start at once; whichever started is kept for afterAll to stop, also
    // when the other failed.
    const [natsStarted, redisStarted] = await Promise.allSettled([
      startNatsCluster({ shardCount }),
      startLocalRedisServer({ dataDirPrefix: testDataDirPrefix("redis") }),
    ]);
    if (natsStarted.status === "fulfilled") cluster = natsStarted.value;
    if (redisStarted.status === "fulfilled") redisServer = redisStarted.value;
    if (natsStarted.status === "rejected") throw natsStarted.reason;
    if (redisStarted.status === "rejected") throw redisStarted.reason;
    // All three seeds: the test's own connection survives the kill like the hosts'.
    nats = await connect({
      servers: [...cluster.urls],
      maxReconnectAttempts: -1,
      reconnectTimeWait: 250,
    });
    jsm = await jetstreamManager(nats, { timeout: 15_000 });
    redis = new Redis(redisServer.url);
  });

  afterAll(async () => {
    await Promise.allSettled(hosts.map((host) => host.stop()));
    await nats?.close().catch(() => undefined);
    redis?.disconnect();
    await Promise.allSettled([cluster?.stop(), redisServer?.stop()]);
  });

  test("killing the inbox stream's leader mid-load loses no message and duplicates no transition; the restarted node catches up", async () => {
    const seeds = cluster.urls.join(",");
    const started = await Promise.all(
      [0, 1].map(() =>
        startHostProcess({
          natsUrl: seeds,
          redisUrl: redisServer.url,
          // Three-replica streams created on a busy machine: each JetStream
          // request may wait for a leader election (a deadline, not a guess
          // of how long the test takes).
          settings: { shardCount, streamReplicas: 3, jetStreamApiTimeoutMs: 60_000 },
          // Its start makes several of those requests: a ready deadline of
          // 30 s (the default) was shorter than one of them (CI, issue #31).
          readyTimeoutMs: 180_000,
        }),
      ),
    );
    hosts.push(...started);
    const hostIds = started.map((host) => host.hostId);
    const leases = new RedisLeaseStore(redis, new RedisKeys("troupe", shardCount));
    await waitFor(
      async () => {
        const owners = (await leases.holders(shardCount)).map((holder) => holder.owner);
        return (
          owners.every((owner) => owner !== undefined && hostIds.includes(owner)) &&
          hostIds.every((id) => owners.includes(id))
        );
      },
      { timeoutMs: 20_000, description: "both hosts own shards" },
    );
    for (const name of allStreams) {
      expect((await jsm.streams.info(name)).config.num_replicas).toBe(3);
    }

    const actorCount = 20;
    const messageCount = 400;
    const intervalMs = 20;
    const killAt = 120;
    const actors = Array.from({ length: actorCount }, (_, index) => `counter/c${index}`);
    const js = jetstream(nats, { timeout: 15_000 });
    let killed: string | undefined;
    let killedAtMs = 0;
    let publishRetries = 0;
    const startMs = Date.now();
    for (let index = 0; index < messageCount; index += 1) {
      const dueMs = startMs + index * intervalMs;
      if (Date.now() < dueMs) await sleep(dueMs - Date.now());
      if (index === killAt) {
        killed = await cluster.streamLeader(jsm, streams.inbox);
        killedAtMs = Date.now();
        await cluster.kill(killed);
      }
      const actor = actors[index % actorCount] as string;
      const messageId = `load-${index}`;
      const { bytes, contentType } = encodeMessage({
        v: 1,
        id: messageId,
        type: "counter.increment",
        payload: { by: 1 },
        meta: { timestampMs: Date.now() },
      });
      const messageHeaders = headers();
      messageHeaders.set("Content-Type", contentType);
      // A client's exactly-once publish: retry with the same Nats-Msg-Id until acked.
      for (;;) {
        try {
          await js.publish(inboxSubject(parseAddress(actor)), bytes, {
            headers: messageHeaders,
            msgID: messageId,
            timeout: 2_000,
          });
          break;
        } catch {
          publishRetries += 1;
          await sleep(100);
        }
      }
    }
    expect(killed).toBeDefined();
    // `troupe host`'s connection check takes the seeds too: one dead server is no failure.
    await checkNats(seeds);

    const snapshots = new RedisSnapshotStore(redis, new RedisKeys("troupe", shardCount));
    const perActor = messageCount / actorCount;
    await waitFor(
      async () => {
        const counts = await Promise.all(
          actors.map(async (actor) => {
            const stored = await snapshots.load(actor);
            return (stored?.record.state as { context: { count: number } } | undefined)?.context
              .count;
          }),
        );
        return counts.every((count) => count === perActor);
      },
      // A deadline, not the expected time: what the killed leader delivered
      // and no host acknowledged comes back after the consumers' ack wait
      // (ackWaitMs, 30 s by default), later on a busy machine.
      { timeoutMs: 120_000, description: `every counter at ${perActor}` },
    ).catch(async (error: unknown) => {
      const counts = await Promise.all(
        actors.map(async (actor) => (await snapshots.load(actor))?.record.generation),
      );
      throw new Error(
        `${String(error)}\ngenerations: ${counts.join(" ")}\n` +
          started.map((host) => `${host.hostId}: ${host.stderr().slice(-3_000)}`).join("\n"),
      );
    });

    await cluster.restart(killed as string);
    await waitFor(
      async () => {
        for (const name of [streams.inbox, streams.events]) {
          const replica = (await jsm.streams.info(name)).cluster?.replicas?.find(
            (peer) => peer.name === killed,
          );
          if (replica === undefined || !replica.current || (replica.lag ?? 0) !== 0) return false;
        }
        return true;
      },
      { timeoutMs: 40_000, description: `${killed} current again, lag 0` },
    );
    const inbox = await jsm.streams.info(streams.inbox);
    expect(inbox.cluster?.replicas?.find((peer) => peer.name === killed)).toMatchObject({
      current: true,
    });
    // Read once the cluster is whole again: on a loaded machine, creating the
    // reading consumer right after an election could outlast its timeout.
    let stored: StoredMessage[] = [];
    let reads = 0;
    await waitFor(
      async () => {
        reads += 1;
        stored = await readStream(js, streams.events, "troupe.counter.*.events.counter.changed");
        // Read again until every event is there: a read right after the
        // restarted node caught up once came back one short (issue #17
        // follow-up); an event truly lost still fails below, listed.
        return stored.length >= messageCount;
      },
      { timeoutMs: 45_000, intervalMs: 500, description: "the events stream read" },
    ).catch(() => undefined);
    const events = stored.map((message) => ({
      timestampMs: message.timestampMs,
      event: decodeEvent(message.data, {
        contentType: message.contentType,
        schemas: counterEventSchemas,
      }),
    }));
    const ids = new Set(events.map(({ event }) => event.id));
    const duplicates = events.length - ids.size;
    expect(duplicates).toBe(0);
    const missing = actors.flatMap((actor) => {
      const seqs = new Set(
        events.filter(({ event }) => event.meta.actor === actor).map(({ event }) => event.meta.seq),
      );
      return Array.from({ length: perActor }, (_, index) => index + 1)
        .filter((seq) => !seqs.has(seq))
        .map((seq) => `${actor}#${seq}`);
    });
    expect(missing, `events missing from the events stream: ${missing.join(" ")}`).toEqual([]);
    expect(events.length).toBe(messageCount);
    for (const actor of actors) {
      const mine = events.filter(({ event }) => event.meta.actor === actor);
      // Sequence n carries count n: every increment applied once, none twice.
      expect(mine.map(({ event }) => event.meta.seq)).toEqual(
        Array.from({ length: perActor }, (_, index) => index + 1),
      );
      expect(mine.map(({ event }) => (event.payload as { count: number }).count)).toEqual(
        mine.map(({ event }) => event.meta.seq),
      );
    }
    // The pause: the largest gap between consecutive stored events from just
    // before the kill on (the election of new stream and consumer leaders, and
    // the clients' reconnects).
    const times = events
      .map(({ timestampMs }) => timestampMs)
      .filter((timestampMs) => timestampMs >= killedAtMs - 1_000)
      .sort((a, b) => a - b);
    let pauseMs = 0;
    for (let index = 1; index < times.length; index += 1) {
      pauseMs = Math.max(pauseMs, (times[index] as number) - (times[index - 1] as number));
    }
    console.log(
      `nats-cluster leader kill: sent ${messageCount} processed ${events.length} duplicates ${duplicates} ` +
        `pause ${pauseMs} ms (killed ${killed}, ${publishRetries} publish retries, events read ${reads}×)`,
    );
  }, 150_000);
  test("streamReplicas changes the replicas of the deployment's existing streams (3 → 1 → 3), and a setting the servers cannot give is refused with StreamSettingsRefusedError, the stream unchanged", async () => {
    // The hosts of the leader-kill test created the streams with 3 replicas.
    await ensureStreams(jsm, streams, { ...retention, streamReplicas: 1 });
    expect((await jsm.streams.info(streams.inbox)).config.num_replicas).toBe(1);
    expect((await jsm.streams.info(streams.inbox)).cluster?.replicas ?? []).toEqual([]);

    await ensureStreams(jsm, streams, { ...retention, streamReplicas: 3 });
    for (const name of allStreams) {
      const info = await jsm.streams.info(name);
      expect(info.config.num_replicas).toBe(3);
    }
    await waitFor(
      async () => {
        const info = await jsm.streams.info(streams.inbox);
        return info.cluster?.replicas?.length === 2;
      },
      { timeoutMs: 15_000, description: "the inbox stream's two new replicas" },
    );

    const tooMany = await ensureStreams(jsm, streams, { ...retention, streamReplicas: 5 }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(tooMany).toBeInstanceOf(StreamSettingsRefusedError);
    expect((tooMany as StreamSettingsRefusedError).code).toBe("invalid_options");
    expect((tooMany as StreamSettingsRefusedError).serverCode).toBe(10005);
    expect((tooMany as Error).message).toContain(`5 replicas for stream ${streams.inbox}`);

    const unknownTags = await ensureStreams(jsm, streams, {
      ...retention,
      streamReplicas: 3,
      streamPlacement: { tags: ["region:nowhere"] },
    }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(unknownTags).toBeInstanceOf(StreamSettingsRefusedError);
    expect((unknownTags as Error).message).toContain("servers tagged region:nowhere");

    // A host started without the setting leaves the replicas as they are.
    await ensureStreams(jsm, streams, retention);
    const inbox = await jsm.streams.info(streams.inbox);
    expect(inbox.config.num_replicas).toBe(3);
    expect(inbox.config.placement?.tags ?? []).toEqual([]);
  });

  test("a server without clustering refuses streamReplicas 3 on an existing stream (nats-server would accept the update and keep one copy)", async () => {
    const single = await startLocalNatsServer({
      shardCount,
      dataDirPrefix: testDataDirPrefix("nats"),
    });
    try {
      const connection = await connect({ servers: single.url });
      const singleManager = await jetstreamManager(connection);
      await ensureStreams(singleManager, streams, retention);
      const refused = await ensureStreams(singleManager, streams, {
        ...retention,
        streamReplicas: 3,
      }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(StreamSettingsRefusedError);
      expect((refused as Error).message).toMatch(/not part of a JetStream cluster/);
      expect((await singleManager.streams.info(streams.inbox)).config.num_replicas).toBe(1);
      await connection.close();
    } finally {
      await single.stop();
    }
  });
});
