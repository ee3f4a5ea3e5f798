import { DiscardPolicy, RetentionPolicy, StorageType } from "@nats-io/jetstream";
import { headers, nanos } from "@nats-io/transport-node";
import { TroupeClient, type SessionEvent } from "@troupe/client";
import {
  decodeEvent,
  DELTA_STREAM_SUBJECTS,
  deltaSubject,
  encodeEvent,
  EVENT_STREAM_SUBJECTS,
  eventSubject,
  type EventEnvelope,
} from "@troupe/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCluster, type Cluster } from "../support/cluster.js";
import { readStream } from "../support/read-stream.js";
import { followSession } from "../support/session-events.js";
import { waitFor } from "../support/wait-for.js";

const AGENT_HOST = "test/src/fixtures/agent-host.ts";
/** The `/slow` demo answer (30 words). */
const SLOW_ANSWER =
  "This answer streams slowly, one word at a time, so that there is time to cancel " +
  "the run or to stop the host while the model call is still streaming its text.";

/** The text of a session's `run.delta` events of kind `text`, joined in order. */
function streamedText(events: readonly EventEnvelope[]): string {
  return events
    .filter((event) => event.type === "run.delta")
    .filter((event) => (event.payload as { kind: string }).kind === "text")
    .map((event) => (event.payload as { text: string }).text)
    .join("");
}

describe("streaming deltas in their own stream (issue #11)", () => {
  let cluster: Cluster;
  let client: TroupeClient;
  beforeAll(async () => {
    cluster = await startCluster({ shardCount: 8 });
    client = await TroupeClient.connect({ natsUrl: cluster.servers.natsUrl });
  });
  afterAll(async () => {
    await client?.close();
    await cluster?.stop();
  });

  const ensureHost = async () => {
    if (cluster.hosts.length > 0) return;
    const host = await cluster.startHost({}, { entry: AGENT_HOST });
    await cluster.waitForOwners([host.hostId], 20_000);
  };

  const stored = async (stream: string, filter: string) =>
    (await readStream(cluster.js, stream, filter)).map((message) =>
      decodeEvent(message.data, { contentType: message.contentType, subject: message.subject }),
    );

  it("a deployment made before the deltas stream existed gets it when a host starts; its events stay", async () => {
    // The layout before issue #11: one events stream, which stored deltas too.
    await cluster.jsm.streams.add({
      name: cluster.streams.events,
      subjects: [...EVENT_STREAM_SUBJECTS],
      retention: RetentionPolicy.Limits,
      storage: StorageType.File,
      discard: DiscardPolicy.Old,
      max_age: nanos(7 * 24 * 3600 * 1000),
    });
    const old = encodeEvent({
      v: 1,
      id: "run/old-1:delta:m1:1:0",
      type: "run.delta",
      payload: { runId: "r1", attempt: 1, kind: "text", text: "old", index: 0 },
      meta: { actor: "run/old-1", seq: 0, transient: true, timestampMs: Date.now() },
    });
    const oldHeaders = headers();
    oldHeaders.set("Content-Type", old.contentType);
    const subject = eventSubject({ kind: "session", id: "old-1" }, "run.delta");
    await cluster.js.publish(subject, old.bytes, { headers: oldHeaders });
    await expect(cluster.jsm.streams.info(cluster.streams.deltas)).rejects.toThrow();

    await ensureHost();

    const events = await cluster.jsm.streams.info(cluster.streams.events);
    expect(events.config.subjects).toEqual([...EVENT_STREAM_SUBJECTS]);
    expect(events.state.messages).toBe(1); // what it stored stays, until the event retention
    const deltas = await cluster.jsm.streams.info(cluster.streams.deltas);
    expect(deltas.config.subjects).toEqual([...DELTA_STREAM_SUBJECTS]);
    expect(deltas.config.max_age).toBe(nanos(3_600_000)); // default 1 h
    // A client still reads the old delta (through the events stream).
    const replayed: string[] = [];
    for await (const item of client.events("old-1", {
      fromSequence: 1,
      signal: AbortSignal.timeout(10_000),
    })) {
      replayed.push((item.event.payload as { text: string }).text);
      break;
    }
    expect(replayed).toEqual(["old"]);
  });

  it("after a streamed answer the events stream holds no run.delta; the deltas stream holds the whole text", async () => {
    await ensureHost();
    const outcome = await client.sendAndWait("dl-1", "/think one two three four", {
      timeoutMs: 30_000,
    });
    expect(outcome).toMatchObject({ status: "completed", text: "You said: one two three four" });
    const durable = await stored(cluster.streams.events, "troupe.session.dl-1.events.>");
    expect(durable.map((event) => event.type)).toContain("run.completed");
    expect(durable.filter((event) => event.type === "run.delta")).toEqual([]);
    expect(durable.every((event) => event.meta.transient !== true && event.meta.seq >= 1)).toBe(
      true,
    );
    const transient = await stored(cluster.streams.deltas, deltaSubject("dl-1"));
    // Text streamed within one event-loop turn is joined into one delta (issue #12).
    expect(transient.length).toBeGreaterThanOrEqual(1);
    expect(transient.every((event) => event.type === "run.delta")).toBe(true);
    expect(streamedText(transient)).toBe("You said: one two three four");
    // Per actor, the durable events' meta.seq is still 1, 2, 3, … without a gap.
    for (const actor of new Set(durable.map((event) => event.meta.actor))) {
      const seqs = durable.filter((event) => event.meta.actor === actor).map((e) => e.meta.seq);
      expect(seqs, actor).toEqual(seqs.map((_, index) => index + 1));
    }
  });

  it("a client resuming mid-answer after run.started gets every delta of the answer, then run.completed", async () => {
    await ensureHost();
    const sessionId = "dl-mid";
    const live = followSession(cluster.nats, sessionId);
    const receipt = await client.send(sessionId, "/slow 60");
    // The client saw the run start, then went away while the answer streams.
    let startedAt = 0;
    for await (const item of client.events(sessionId, {
      fromSequence: 1,
      signal: AbortSignal.timeout(20_000),
    })) {
      if (item.event.type === "run.started") {
        startedAt = item.sequence;
        break;
      }
    }
    expect(startedAt).toBeGreaterThan(0);
    await live.until(
      (events) => events.filter((event) => event.type === "run.delta").length >= 8,
      20_000,
      "eight deltas streamed",
    );
    expect(live.types()).not.toContain("run.completed"); // really mid-answer

    const resumed: SessionEvent[] = [];
    for await (const item of client.events(sessionId, {
      fromSequence: startedAt + 1,
      signal: AbortSignal.timeout(30_000),
    })) {
      resumed.push(item);
      if (item.event.type === "run.completed") break;
    }
    const completed = resumed.at(-1)!;
    expect(completed.event.type).toBe("run.completed");
    expect((completed.event.payload as { text: string }).text).toBe(SLOW_ANSWER);
    const deltas = resumed.filter((item) => item.event.type === "run.delta");
    expect(streamedText(deltas.map((item) => item.event))).toBe(SLOW_ANSWER);
    // Each delta carries its place: the durable sequence before it, and its own stream's sequence.
    for (const item of deltas) {
      expect(item.sequence).toBeGreaterThanOrEqual(startedAt);
      expect(item.deltaSequence).toBeGreaterThan(0);
    }
    expect(receipt.clientMessageId).toBeTruthy();
    live.stop();

    // Read again from the start once the run ended (within the delta retention):
    // the deltas come back in place, between run.started and run.completed, once each.
    const replay: SessionEvent[] = [];
    for await (const item of client.events(sessionId, {
      fromSequence: 1,
      signal: AbortSignal.timeout(20_000),
    })) {
      replay.push(item);
      if (item.event.type === "session.idle") break;
    }
    const types = replay.map((item) => item.event.type);
    expect(types.indexOf("run.started")).toBeLessThan(types.indexOf("run.delta"));
    expect(types.lastIndexOf("run.delta")).toBeLessThan(types.indexOf("run.completed"));
    expect(streamedText(replay.map((item) => item.event))).toBe(SLOW_ANSWER);
  });

  it("with a short delta retention, deltas expire from their stream while run.completed stays", async () => {
    // A host started with deltaRetentionMs re-applies it to the deployment (the last one wins).
    const host = await cluster.startHost({ deltaRetentionMs: 1_000 }, { entry: AGENT_HOST });
    await cluster.waitForOwners(
      cluster.hosts.map((each) => each.hostId),
      20_000,
    );
    expect(host.hostId).toBeTruthy();
    const deltasInfo = await cluster.jsm.streams.info(cluster.streams.deltas);
    expect(deltasInfo.config.max_age).toBe(nanos(1_000));

    const sessionId = "dl-expire";
    const before = deltasInfo.state.last_seq;
    const live = followSession(cluster.nats, sessionId);
    const outcome = await client.sendAndWait(sessionId, "/think expire these words", {
      timeoutMs: 30_000,
    });
    expect(outcome).toMatchObject({ status: "completed", text: "You said: expire these words" });
    expect(streamedText(live.events)).toBe("You said: expire these words"); // they were published
    live.stop();

    const filter = `troupe.session.${sessionId}.events.>`;
    await waitFor(
      async () => (await stored(cluster.streams.deltas, deltaSubject(sessionId))).length === 0,
      { timeoutMs: 20_000, intervalMs: 250, description: "the session's deltas expired" },
    );
    // They had been stored: the deltas stream's last sequence moved past every one.
    const liveDeltas = live.ofType("run.delta").length;
    expect(liveDeltas).toBeGreaterThanOrEqual(1);
    const after = await cluster.jsm.streams.info(cluster.streams.deltas);
    expect(after.state.last_seq - before).toBeGreaterThanOrEqual(liveDeltas);
    const durable = await stored(cluster.streams.events, filter);
    const completed = durable.filter((event) => event.type === "run.completed");
    expect(completed).toHaveLength(1);
    expect(completed[0]!.payload).toMatchObject({ text: "You said: expire these words" });
    expect(durable.filter((event) => event.type === "run.delta")).toEqual([]);
  });
});
