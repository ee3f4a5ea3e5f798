import { decodeEvent, parseAddress, shardOf } from "@troupe/protocol";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { counterEventSchemas, counterKind } from "../fixtures/counter-machine.js";
import { startCluster, type Cluster } from "../support/cluster.js";
import { readStream } from "../support/read-stream.js";
import { waitFor } from "../support/wait-for.js";

describe("durable timers", () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster({ shardCount: 8 });
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  it("a 2 s timer whose host is SIGKILLed at 1 s fires exactly once, not before its deadline", async () => {
    const hosts = await Promise.all([cluster.startHost(), cluster.startHost()]);
    await cluster.waitForBalance(
      hosts.map((host) => host.hostId),
      20_000,
    );
    const actor = "counter/timer-1";
    const owners = await cluster.owners();
    const owner = hosts.find(
      (host) => host.hostId === owners[shardOf(parseAddress(actor), cluster.shardCount)],
    )!;
    const survivor = hosts.find((host) => host !== owner)!;

    await cluster.send(actor, "counter.schedule", { delayMs: 2000 });
    await waitFor(
      async () => ((await cluster.snapshots.load(actor))?.record.timers.length ?? 0) === 1,
      {
        timeoutMs: 10_000,
        description: "timer armed",
      },
    );
    const deadlineMs = (await cluster.snapshots.load(actor))!.record.timers[0]!.deadlineMs;
    await sleep(Math.max(0, deadlineMs - 1000 - Date.now()));
    owner.signal("SIGKILL");

    await waitFor(async () => (await cluster.context<{ alarms: number }>(actor))?.alarms === 1, {
      timeoutMs: 15_000,
      description: "the alarm fired",
    });
    await cluster.waitForOwners([survivor.hostId], 10_000);
    // Nothing more can reach it (a redelivery of what the killed host left
    // unacknowledged comes within the ack wait, 30 s): a second firing would show now.
    await cluster.waitForSettled(actor, 60_000);
    expect((await cluster.context<{ alarms: number }>(actor))?.alarms).toBe(1);

    const fired = (
      await readStream(
        cluster.js,
        cluster.streams.events,
        `troupe.counter.timer-1.events.counter.alarm_fired`,
      )
    ).map((message) =>
      decodeEvent(message.data, { contentType: message.contentType, schemas: counterEventSchemas }),
    );
    expect(fired).toHaveLength(1);
    expect(fired[0]!.meta.timestampMs).toBeGreaterThanOrEqual(deadlineMs);
    const stored = await cluster.snapshots.load(actor);
    expect(stored?.record.timers).toEqual([]);
    const report = await cluster.replay(actor, counterKind);
    expect(report.reproduces).toBe(true);
  });
});
