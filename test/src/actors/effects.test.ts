import {
  decodeEvent,
  decodeMessage,
  hostMessageSchemas,
  parseAddress,
  shardInboxSubject,
  shardOf,
  type MessageEnvelope,
} from "@troupe/protocol";
import { RedisKeys } from "@troupe/protocol/internal";
import { describe, expect, it } from "vitest";
import {
  counterEventSchemas,
  counterKind,
  type CounterContext,
} from "../fixtures/counter-machine.js";
import { startCluster, type Cluster } from "../support/cluster.js";
import { readStream } from "../support/read-stream.js";
import { waitFor } from "../support/wait-for.js";

/** The counts carried by an actor's `counter.changed` events, in event-sequence order. */
async function changedCounts(cluster: Cluster, id: string): Promise<number[]> {
  const events = (
    await readStream(
      cluster.js,
      cluster.streams.events,
      `troupe.counter.${id}.events.counter.changed`,
    )
  ).map((message) =>
    decodeEvent(message.data, { contentType: message.contentType, schemas: counterEventSchemas }),
  );
  expect(events.map((event) => event.meta.seq)).toEqual(events.map((_, index) => index + 1));
  return events.map((event) => (event.payload as { count: number }).count);
}

/** The messages an actor's inbox (its journal) holds, oldest first. */
async function journal(cluster: Cluster, actor: string): Promise<MessageEnvelope[]> {
  const address = parseAddress(actor);
  const subject = shardInboxSubject(shardOf(address, cluster.shardCount), address);
  const messages = await readStream(cluster.js, cluster.streams.inbox, subject);
  return messages.map((message) =>
    decodeMessage(message.data, {
      contentType: message.contentType,
      schemas: { ...counterKind.messageSchemas, ...hostMessageSchemas },
      defaults: { id: `${actor}:in:${message.seq}`, timestampMs: 0 },
    }),
  );
}

describe("effects", () => {
  it("an effect requested by the machine runs and its result is applied: counter.double doubles the count", async () => {
    await using cluster = await startCluster({ shardCount: 8 });
    const host = await cluster.startHost();
    await cluster.waitForOwners([host.hostId], 15_000);
    const actor = "counter/fx-double";

    await cluster.send(actor, "counter.increment", { by: 21 });
    await cluster.send(actor, "counter.double", {});
    await waitFor(async () => (await cluster.context<CounterContext>(actor))?.count === 42, {
      timeoutMs: 10_000,
      description: "count doubled to 42",
    });

    const stored = await cluster.snapshots.load(actor);
    // increment, double (requests the effect), effect.completed (applies its result)
    expect(stored?.record.generation).toBe(3);
    expect(stored?.record.effects).toEqual([]);
    expect(await changedCounts(cluster, "fx-double")).toEqual([21, 42]);
    const inputs = await journal(cluster, actor);
    expect(inputs.map((message) => message.type)).toEqual([
      "counter.increment",
      "counter.double",
      "effect.completed",
    ]);
    // Generation 2 (newest in history) holds the request; the journaled result answers it.
    const [requested] = (await cluster.snapshots.history(actor))[0]?.effects ?? [];
    expect(requested).toMatchObject({ effect: "double", input: { count: 21 } });
    expect(inputs[2]?.payload).toEqual({ effectId: requested?.effectId, output: { count: 42 } });
    const report = await cluster.replay(actor, counterKind);
    expect(report.reproduces).toBe(true);
  });

  it("an effect running when its host is SIGKILLed is resumed by the new owner (host run 2) and applied exactly once", async () => {
    await using cluster = await startCluster({ shardCount: 8 });
    const hosts = await Promise.all([cluster.startHost(), cluster.startHost()]);
    await cluster.waitForBalance(
      hosts.map((host) => host.hostId),
      20_000,
    );
    const id = "fx-slow";
    const actor = `counter/${id}`;
    const owners = await cluster.owners();
    const owner = hosts.find(
      (host) => host.hostId === owners[shardOf(parseAddress(actor), cluster.shardCount)],
    )!;
    const survivor = hosts.find((host) => host !== owner)!;

    await cluster.send(actor, "counter.increment", { by: 5 });
    await cluster.send(actor, "counter.slow_double", { delayMs: 2000 });
    await waitFor(async () => (await cluster.snapshots.load(actor))?.record.effects.length === 1, {
      timeoutMs: 10_000,
      description: "the slow_double effect is pending",
    });
    const [effect] = (await cluster.snapshots.load(actor))!.record.effects;
    expect(effect?.effect).toBe("slow_double");
    expect(effect?.input).toEqual({ count: 5, delayMs: 2000 });
    // The runner counts a run in Redis right before it calls the handler.
    const hostRunKey = new RedisKeys("troupe").effectRun(actor, effect!.effectId);
    await waitFor(async () => (await cluster.redis.get(hostRunKey)) === "1", {
      timeoutMs: 5_000,
      description: "host run 1 of the effect started",
    });

    owner.signal("SIGKILL");
    expect(await owner.exited).toEqual({ code: null, signal: "SIGKILL" });
    await waitFor(async () => (await cluster.context<CounterContext>(actor))?.count === 10, {
      timeoutMs: 15_000,
      description: "the resumed effect doubled the count to 10",
    });
    await cluster.waitForOwners([survivor.hostId], 10_000);

    // The result sets the count (to 10 however often it is applied), so "exactly once"
    // shows in the generation, the journal and the events: one result, one transition.
    const context = await cluster.context<CounterContext>(actor);
    expect(context).toEqual({ count: 10, alarms: 0, slowDoubleHostRun: 2 });
    expect(await cluster.redis.get(hostRunKey)).toBe("2");
    const stored = await cluster.snapshots.load(actor);
    expect(stored?.record.effects).toEqual([]);
    // increment, slow_double, one effect.completed: the result entered the inbox once.
    expect(stored?.record.generation).toBe(3);
    const inputs = await journal(cluster, actor);
    expect(inputs.map((message) => message.type)).toEqual([
      "counter.increment",
      "counter.slow_double",
      "effect.completed",
    ]);
    expect(inputs[2]?.payload).toEqual({
      effectId: effect!.effectId,
      output: { count: 10, hostRun: 2 },
    });
    expect(await changedCounts(cluster, id)).toEqual([5, 10]);
    const report = await cluster.replay(actor, counterKind);
    expect(report.reproduces).toBe(true);
  });
});
