import { decodeEvent } from "@troupe/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CounterContext } from "../fixtures/counter-machine.js";
import { poisonEventSchemas, type PoisonContext } from "../fixtures/poison-machine.js";
import { startCluster, type Cluster } from "../support/cluster.js";
import type { HostProcess } from "../support/host-process.js";
import { readStream } from "../support/read-stream.js";
import { waitFor } from "../support/wait-for.js";

const POISON_HOST = "test/src/fixtures/poison-host.ts";
const MIB = 1024 * 1024;

/** Issue #11: one actor's bad data never takes down a host. */
describe("poison containment", () => {
  let cluster: Cluster;
  let host: HostProcess;
  beforeAll(async () => {
    cluster = await startCluster({ shardCount: 8 });
    host = await cluster.startOnlyHost(POISON_HOST);
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  /** The host process is still running (no exit code, no signal). */
  function expectHostAlive(): void {
    expect(host.child.exitCode).toBeNull();
    expect(host.child.signalCode).toBeNull();
    expect(host.stderr()).not.toMatch(/Unhandled|PayloadTooLargeError|uncaught/i);
  }

  /** The counter on the same host still takes an increment and applies it. */
  async function expectCounterServed(actor: string, count: number): Promise<void> {
    await cluster.send(actor, "counter.increment", { by: 1 });
    await waitFor(async () => (await cluster.context<CounterContext>(actor))?.count === count, {
      timeoutMs: 15_000,
      description: `${actor} at ${count}`,
    });
  }

  async function rejectedEvents(id: string) {
    return (
      await readStream(
        cluster.js,
        cluster.streams.events,
        `troupe.poison.${id}.events.message.rejected`,
      )
    ).map(
      (message) =>
        decodeEvent(message.data, { contentType: message.contentType, schemas: poisonEventSchemas })
          .payload as { code: string; reason: string; type?: string },
    );
  }

  it("effect results that cannot be sent (2 MiB, a BigInt, a hostile thrown value) become effect.failed; the host keeps serving", async () => {
    const cases = [
      {
        mode: "huge",
        bytes: 2 * MIB,
        code: "payload_too_large",
        message: /^The "poison" effect result is \d+ bytes encoded; the limit is 1048576 bytes\./,
      },
      {
        mode: "bigint",
        bytes: 0,
        code: "internal",
        message: /^The "poison" effect result cannot be encoded: /,
      },
      {
        mode: "hostile_throw",
        bytes: 0,
        code: "internal",
        message: /^The effect handler threw a value that cannot be inspected\.$/,
      },
    ] as const;
    let counted = 0;
    for (const [index, poison] of cases.entries()) {
      const actor = `poison/fx-${index}`;
      await cluster.send(actor, "poison.effect", { mode: poison.mode, bytes: poison.bytes });
      await waitFor(
        async () => (await cluster.context<PoisonContext>(actor))?.lastFailure !== undefined,
        { timeoutMs: 20_000, description: `${actor}: effect.failed applied` },
      );
      const context = await cluster.context<PoisonContext>(actor);
      expect(context?.lastFailure?.code).toBe(poison.code);
      expect(context?.lastFailure?.message).toMatch(poison.message);
      // The effect is answered, not pending (a new owner would not run it again).
      expect((await cluster.snapshots.load(actor))?.record.effects).toEqual([]);
      // The same actor takes its next message.
      await cluster.send(actor, "poison.ping", {});
      await waitFor(async () => (await cluster.context<PoisonContext>(actor))?.pings === 1, {
        timeoutMs: 15_000,
        description: `${actor} answered a ping`,
      });
      counted += 1;
      await expectCounterServed("counter/bystander-fx", counted);
      expectHostAlive();
    }
  });

  it("a throwing step and an oversized event are dead-lettered once; the actor and the host go on", async () => {
    const actor = "poison/steps";
    await cluster.send(actor, "poison.ping", {});
    await cluster.send(actor, "poison.throw", {});
    await cluster.send(actor, "poison.emit", { bytes: 2 * MIB });
    await cluster.send(actor, "poison.ping", {});
    // FIFO per actor: the second ping is applied only if neither poison message blocks.
    await waitFor(async () => (await cluster.context<PoisonContext>(actor))?.pings === 2, {
      timeoutMs: 20_000,
      description: "both pings applied",
    });
    const rejected = await rejectedEvents("steps");
    expect(rejected.map((event) => [event.type, event.code])).toEqual([
      ["poison.throw", "internal"],
      ["poison.emit", "payload_too_large"],
    ]);
    expect(rejected[0]?.reason).toContain("the poison machine throws on purpose");
    expect(rejected[1]?.reason).toMatch(
      /^The message on troupe\.poison\.steps\.events\.poison\.big is \d+ bytes; the limit is 1048576 bytes\.$/,
    );
    const deadLetters = (
      await readStream(cluster.js, cluster.streams.deadLetter, "_troupe.deadletter.poison.steps")
    ).map((message) => JSON.parse(new TextDecoder().decode(message.data)) as { code: string });
    expect(deadLetters.map((letter) => letter.code)).toEqual(["internal", "payload_too_large"]);
    // Dead-lettered once, not redelivered: four inputs, four generations.
    expect((await cluster.snapshots.load(actor))?.record.generation).toBe(4);
    // The big event was never published.
    expect(
      await readStream(cluster.js, cluster.streams.events, "troupe.poison.steps.events.poison.big"),
    ).toEqual([]);
    await expectCounterServed("counter/bystander-steps", 1);
    expectHostAlive();
  });
});
