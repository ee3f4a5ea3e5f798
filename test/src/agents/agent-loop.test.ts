import { parseAddress, shardOf, decodeEvent } from "@troupe/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCluster, type Cluster } from "../support/cluster.js";
import { readStream } from "../support/read-stream.js";
import { followSession } from "../support/session-events.js";

const AGENT_HOST = "test/src/fixtures/agent-host.ts";

describe("the agent loop", () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster({ shardCount: 8 });
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  it("a plain JSON user.message published with a bare NATS client streams a scripted answer", async () => {
    const host = await cluster.startHost({}, { entry: AGENT_HOST });
    await cluster.waitForOwners([host.hostId], 20_000);
    const log = followSession(cluster.nats, "plain-1");
    // No Troupe code on the sending side: a bare publish of a JSON body.
    cluster.nats.publish(
      "troupe.session.plain-1.in",
      new TextEncoder().encode('{"type":"user.message","text":"/think one two three"}'),
    );
    await log.until(
      (events) => events.some((event) => event.type === "session.idle"),
      20_000,
      "session.idle",
    );
    const types = log.types().filter((type) => type !== "run.delta");
    expect(types).toEqual([
      "session.created",
      "message.accepted",
      "run.started",
      "run.completed",
      "session.idle",
    ]);
    const deltas = log.events.filter((event) => event.type === "run.delta");
    // A zero-delay answer streams within one event-loop turn: one joined delta (issue #12).
    expect(deltas.length).toBeGreaterThanOrEqual(1);
    const completed = log.events.find((event) => event.type === "run.completed")!;
    expect(completed.payload).toMatchObject({ runId: "r1", text: "You said: one two three" });
    const streamedText = deltas
      .filter((event) => (event.payload as { kind: string }).kind === "text")
      .map((event) => (event.payload as { text: string }).text)
      .join("");
    expect(streamedText).toBe("You said: one two three");
    // Deltas precede the completion; run.started precedes every delta.
    const order = log.events.map((event) => event.type);
    expect(order.indexOf("run.started")).toBeLessThan(order.indexOf("run.delta"));
    expect(order.lastIndexOf("run.delta")).toBeLessThan(order.indexOf("run.completed"));
    expect(
      (completed.payload as { usage: { outputTokens: number } }).usage.outputTokens,
    ).toBeGreaterThan(0);
    log.stop();
  });

  it("the same client message id published twice yields one run", async () => {
    if (cluster.hosts.length === 0) {
      const host = await cluster.startHost({}, { entry: AGENT_HOST });
      await cluster.waitForOwners([host.hostId], 20_000);
    }
    const log = followSession(cluster.nats, "dup-1");
    const body = new TextEncoder().encode(
      '{"type":"user.message","text":"hello","clientMessageId":"client-7"}',
    );
    await cluster.js.publish("troupe.session.dup-1.in", body);
    await cluster.js.publish("troupe.session.dup-1.in", body);
    await log.until(
      (events) =>
        events.some((event) => event.type === "message.duplicate") &&
        events.some((event) => event.type === "session.idle"),
      20_000,
      "duplicate and idle",
    );
    const stored = (
      await readStream(cluster.js, cluster.streams.events, "troupe.session.dup-1.events.>")
    )
      .map((message) => decodeEvent(message.data, { contentType: message.contentType }))
      .filter((event) => event.meta.transient !== true);
    const count = (type: string) => stored.filter((event) => event.type === type).length;
    expect(count("message.accepted")).toBe(1);
    expect(count("message.duplicate")).toBe(1);
    expect(count("run.started")).toBe(1);
    expect(count("run.completed")).toBe(1);
    log.stop();
  });

  it("a host SIGKILLed while a model call streams: another host re-runs it with a new attempt, one run.completed", async () => {
    const extra = await cluster.startHost({}, { entry: AGENT_HOST });
    const ids = cluster.hosts.map((host) => host.hostId);
    await cluster.waitForBalance(ids, 20_000);
    // Pick a session whose run actor lives on a host we can kill while another survives.
    const owners = await cluster.owners();
    const sessionId = Array.from({ length: 100 }, (_, index) => `kill-${index}`).find(
      (id) => owners[shardOf(parseAddress(`run/${id}`), cluster.shardCount)] === extra.hostId,
    )!;
    const log = followSession(cluster.nats, sessionId);
    await cluster.js.publish(
      `troupe.session.${sessionId}.in`,
      new TextEncoder().encode('{"type":"user.message","text":"/slow 150"}'),
    );
    await log.until(
      (events) => events.filter((event) => event.type === "run.delta").length >= 3,
      20_000,
      "three deltas",
    );
    extra.signal("SIGKILL");
    await log.until(
      (events) => events.some((event) => event.type === "run.completed"),
      30_000,
      "run.completed",
    );
    await log.until(
      (events) => events.some((event) => event.type === "session.idle"),
      10_000,
      "session.idle",
    );

    const attempts = new Set(
      log.events
        .filter((event) => event.type === "run.delta")
        .map((event) => (event.payload as { attempt: number }).attempt),
    );
    expect([...attempts].sort()).toEqual([1, 2]);
    const stored = (
      await readStream(
        cluster.js,
        cluster.streams.events,
        `troupe.session.${sessionId}.events.run.completed`,
      )
    ).map((message) => decodeEvent(message.data, { contentType: message.contentType }));
    expect(stored).toHaveLength(1);
    const secondAttemptText = log.events
      .filter(
        (event) =>
          event.type === "run.delta" && (event.payload as { attempt: number }).attempt === 2,
      )
      .map((event) => (event.payload as { text: string }).text)
      .join("");
    expect((stored[0]!.payload as { text: string }).text).toBe(secondAttemptText);
    log.stop();
  });
});
