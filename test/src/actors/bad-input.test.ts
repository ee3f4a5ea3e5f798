import { randomBytes } from "node:crypto";
import { headers } from "@nats-io/transport-node";
import { UNROUTABLE_DEAD_LETTER_SUBJECT, parseAddress, shardOf } from "@troupe/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCluster, type Cluster } from "../support/cluster.js";
import { readStream } from "../support/read-stream.js";
import { waitFor } from "../support/wait-for.js";

describe("bad input", () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster({ shardCount: 8 });
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  it("1,000 malformed messages: no host exits, no state changes, 1,000 dead letters with reasons", async () => {
    const hosts = await Promise.all([cluster.startHost(), cluster.startHost()]);
    await cluster.waitForOwners(
      hosts.map((host) => host.hostId),
      20_000,
    );
    const actors = Array.from({ length: 10 }, (_, index) => `counter/m${index}`);
    await Promise.all(actors.map((actor) => cluster.send(actor, "counter.increment", { by: 7 })));
    await waitFor(
      async () =>
        (await Promise.all(actors.map((actor) => cluster.context<{ count: number }>(actor)))).every(
          (c) => c?.count === 7,
        ),
      { timeoutMs: 15_000, description: "counters at 7" },
    );
    const before = await Promise.all(
      actors.map(async (actor) => (await cluster.snapshots.load(actor))!.record.state),
    );

    const encoder = new TextEncoder();
    const publishes: { subject: string; body: Uint8Array }[] = [];
    for (let index = 0; index < 300; index += 1) {
      publishes.push({
        subject: `troupe.counter.m${index % 10}.in`,
        body: randomBytes(1 + (index % 64)),
      });
    }
    for (let index = 0; index < 300; index += 1) {
      publishes.push({
        subject: `troupe.counter.m${index % 10}.in`,
        body: encoder.encode(
          JSON.stringify({ type: "counter.increment", by: index % 2 === 0 ? "lots" : 1.5 }),
        ),
      });
    }
    for (let index = 0; index < 200; index += 1) {
      publishes.push({
        subject: `troupe.counter.m${index % 10}.in`,
        body: encoder.encode(`{"type":"counter.explode","n":${index}}`),
      });
    }
    for (let index = 0; index < 10; index += 1) {
      // One body close to the server's 4 MB max_payload: its dead letter must
      // still fit (the copy of the body is left out above 1 MiB).
      const text = "x".repeat(index === 0 ? 3_900_000 : 1024 * 1024 + 100);
      publishes.push({
        subject: `troupe.counter.m${index}.in`,
        body: encoder.encode(JSON.stringify({ type: "counter.increment", by: 1, text })),
      });
    }
    for (let index = 0; index < 100; index += 1) {
      publishes.push({
        subject: `troupe.counter.bad$id-${index}.in`,
        body: encoder.encode(`{"type":"counter.increment","by":1}`),
      });
    }
    for (let index = 0; index < 90; index += 1) {
      publishes.push({
        subject: `troupe.nosuchkind.x${index}.in`,
        body: encoder.encode(`{"type":"counter.increment","by":1}`),
      });
    }
    expect(publishes).toHaveLength(1000);
    for (let start = 0; start < publishes.length; start += 100) {
      await Promise.all(
        publishes
          .slice(start, start + 100)
          .map(({ subject, body }) => cluster.js.publish(subject, body)),
      );
    }

    await waitFor(
      async () =>
        (await cluster.jsm.streams.info(cluster.streams.deadLetter)).state.messages >= 1000,
      { timeoutMs: 30_000, description: "1,000 dead letters" },
    );
    const deadLetters = (
      await readStream(cluster.js, cluster.streams.deadLetter, "_troupe.deadletter.>")
    ).map(
      (message) =>
        JSON.parse(new TextDecoder().decode(message.data)) as {
          reason: string;
          code: string;
          subject: string;
          sizeBytes: number;
          data: string | undefined;
        },
    );
    expect(deadLetters).toHaveLength(1000);
    for (const letter of deadLetters) {
      expect(letter.reason.length).toBeGreaterThan(0);
      expect(letter.code.length).toBeGreaterThan(0);
    }
    const codes = new Map<string, number>();
    for (const letter of deadLetters) codes.set(letter.code, (codes.get(letter.code) ?? 0) + 1);
    expect(codes.get("payload_too_large")).toBe(10);
    const huge = deadLetters.filter((letter) => letter.sizeBytes > 3_000_000);
    expect(huge).toHaveLength(1);
    expect(huge[0]!.data).toBeUndefined();
    // Bodies up to 1 MiB are copied into their dead letter; larger ones are not.
    for (const letter of deadLetters) {
      expect(letter.data === undefined).toBe(letter.sizeBytes > 1024 * 1024);
    }
    expect(codes.get("decode_failed:unknown_type")).toBe(200);
    expect(codes.get("invalid_address")).toBe(190);

    for (const host of hosts) expect(host.child.exitCode).toBeNull();
    const after = await Promise.all(
      actors.map(async (actor) => (await cluster.snapshots.load(actor))!.record.state),
    );
    expect(after).toEqual(before);
    const rejected = await readStream(
      cluster.js,
      cluster.streams.events,
      "troupe.counter.*.events.message.rejected",
    );
    expect(rejected).toHaveLength(810);
    // The actor that got the 3.9 MB body still takes messages.
    await cluster.send("counter/m0", "counter.increment", { by: 1 });
    await cluster.waitForCounts(["counter/m0"], 8, 15_000);
  });

  it("a message published straight to the wrong internal shard subject is dead-lettered, not applied", async () => {
    if (cluster.hosts.length === 0) {
      const host = await cluster.startHost();
      await cluster.waitForOwners([host.hostId], 20_000);
    }
    const actor = "counter/wrong-shard";
    const right = shardOf(parseAddress(actor), cluster.shardCount);
    const wrong = (right + 1) % cluster.shardCount;
    const before = (await cluster.jsm.streams.info(cluster.streams.deadLetter)).state.messages;
    for (let index = 0; index < 5; index += 1) {
      await cluster.js.publish(
        `_troupe.inbox.${wrong}.counter.wrong-shard`,
        new TextEncoder().encode('{"type":"counter.increment","by":1}'),
      );
    }
    await waitFor(
      async () =>
        (await cluster.jsm.streams.info(cluster.streams.deadLetter)).state.messages === before + 5,
      { timeoutMs: 15_000, description: "five more dead letters" },
    );
    const letters = (
      await readStream(
        cluster.js,
        cluster.streams.deadLetter,
        "_troupe.deadletter.counter.wrong-shard",
      )
    ).map(
      (message) =>
        JSON.parse(new TextDecoder().decode(message.data)) as { code: string; reason: string },
    );
    expect(letters).toHaveLength(5);
    for (const letter of letters) {
      expect(letter.code).toBe("invalid_address");
      expect(letter.reason).toContain(`belongs to shard ${right}`);
    }
    expect(await cluster.snapshots.load(actor)).toBeUndefined();
  });

  it("publishes under troupe. that match no route are dead-lettered with unroutable_subject, subject, headers and body; routed ones are not (issue #11)", async () => {
    if (cluster.hosts.length === 0) {
      const host = await cluster.startHost();
      await cluster.waitForOwners([host.hostId], 20_000);
    }
    const encoder = new TextEncoder();
    const body = encoder.encode('{"type":"user.message","text":"hi"}');
    const messageHeaders = headers();
    messageHeaders.set("Content-Type", "application/json");
    messageHeaders.set("X-Trace", "t-1");
    // A session id with a dot, a missing ".in", a deep one; then a routed inbox publish.
    cluster.nats.publish("troupe.session.a.b.in", body, { headers: messageHeaders });
    cluster.nats.publish("troupe.counter.c1", encoder.encode("plain text"));
    cluster.nats.publish("troupe.session.a.b.c.d.e.f.g.in", encoder.encode("{}"));
    await cluster.js.publish("troupe.counter.routed-1.in", '{"type":"counter.increment","by":2}');
    // A JetStream publish to such a subject is answered with the reason, not left to time out.
    await expect(cluster.js.publish("troupe.session.x.y.in", body)).rejects.toThrow(
      /No route for the subject "troupe\.session\.x\.y\.in"/,
    );
    await cluster.waitForCounts(["counter/routed-1"], 2, 15_000);

    let letters: {
      code: string;
      subject: string;
      reason: string;
      data?: string;
      headers?: unknown;
    }[] = [];
    await waitFor(
      async () => {
        letters = (
          await readStream(cluster.js, cluster.streams.deadLetter, UNROUTABLE_DEAD_LETTER_SUBJECT)
        ).map(
          (message) =>
            JSON.parse(new TextDecoder().decode(message.data)) as (typeof letters)[number],
        );
        return letters.length >= 4;
      },
      { timeoutMs: 15_000, description: "four unroutable dead letters" },
    );
    expect(letters.map((letter) => letter.subject).sort()).toEqual([
      "troupe.counter.c1",
      "troupe.session.a.b.c.d.e.f.g.in",
      "troupe.session.a.b.in",
      "troupe.session.x.y.in",
    ]);
    for (const letter of letters) expect(letter.code).toBe("unroutable_subject");
    const dotted = letters.find((letter) => letter.subject === "troupe.session.a.b.in")!;
    expect(dotted.reason).toContain('No route for the subject "troupe.session.a.b.in"');
    expect(Buffer.from(dotted.data!, "base64").toString()).toBe(
      '{"type":"user.message","text":"hi"}',
    );
    expect(dotted.headers).toEqual({ "Content-Type": ["application/json"], "X-Trace": ["t-1"] });
    // Routed traffic (the inbox publish, the counter's events) left no unroutable dead letter.
    const all = await readStream(
      cluster.js,
      cluster.streams.deadLetter,
      UNROUTABLE_DEAD_LETTER_SUBJECT,
    );
    expect(all).toHaveLength(4);
  });
});
