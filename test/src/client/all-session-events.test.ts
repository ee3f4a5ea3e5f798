import { jetstream } from "@nats-io/jetstream";
import { headers, type NatsConnection } from "@nats-io/transport-node";
import { TroupeClient, type SessionEvent } from "@troupe/client";
import { encodeEvent, eventSubject, type EventType } from "@troupe/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStreamsServer, type StreamsServer } from "../support/streams-server.js";
import { waitFor } from "../support/wait-for.js";

// issue #16: the gateway's fleet index follows every session's durable events
// with one ordered consumer (TroupeClient.allSessionEvents).
describe("TroupeClient.allSessionEvents", () => {
  let deployment: StreamsServer;
  let publisher: NatsConnection;
  const prefix = "allev";

  beforeAll(async () => {
    deployment = await startStreamsServer(prefix);
    publisher = deployment.nats;
  });
  afterAll(async () => {
    await deployment?.stop();
  });

  const publish = async (kind: string, id: string, n: number) => {
    const type: EventType = "session.idle";
    const envelopeId = `${kind}/${id}:ev:${n}`;
    const { bytes, contentType } = encodeEvent({
      v: 1,
      id: envelopeId,
      type,
      payload: { sessionId: id, lastRunId: `r${n}` },
      meta: { actor: `${kind}/${id}`, seq: n, timestampMs: Date.now() },
    });
    const eventHeaders = headers();
    eventHeaders.set("Content-Type", contentType);
    await jetstream(publisher).publish(eventSubject({ kind, id }, type), bytes, {
      headers: eventHeaders,
      msgID: envelopeId,
    });
  };

  it("yields every session's events in stream order, not other kinds', says when caught up, then follows", async () => {
    await publish("session", "a1", 1);
    await publish("session", "b1", 1);
    await publish("worker", "w1", 1); // another kind's events are not a session's
    await publish("session", "a1", 2);
    const client = await TroupeClient.connect({ natsUrl: deployment.server.url, prefix });
    const received: SessionEvent[] = [];
    let receivedWhenCaughtUp: number | undefined;
    const controller = new AbortController();
    const following = (async () => {
      for await (const event of client.allSessionEvents({
        fromSequence: 1,
        signal: controller.signal,
        onCaughtUp: () => (receivedWhenCaughtUp ??= received.length),
      })) {
        received.push(event);
      }
    })();
    try {
      await waitFor(() => receivedWhenCaughtUp !== undefined, {
        timeoutMs: 10_000,
        description: "caught up",
      });
      expect(receivedWhenCaughtUp).toBe(3);
      await publish("session", "c1", 1);
      await waitFor(() => received.length === 4, { timeoutMs: 10_000, description: "live event" });
      expect(received.map((event) => [event.sequence, event.event.id])).toEqual([
        [1, "session/a1:ev:1"],
        [2, "session/b1:ev:1"],
        [4, "session/a1:ev:2"],
        [5, "session/c1:ev:1"],
      ]);
      expect(received[2]?.subject).toBe("troupe.session.a1.events.session.idle");
    } finally {
      controller.abort();
      await following;
      await client.close();
    }
  });

  it("says it is caught up at once when nothing is stored after the start", async () => {
    const client = await TroupeClient.connect({ natsUrl: deployment.server.url, prefix });
    const last = await client.lastSequence();
    let caughtUp = false;
    const controller = new AbortController();
    const received: SessionEvent[] = [];
    const following = (async () => {
      for await (const event of client.allSessionEvents({
        fromSequence: last + 1,
        signal: controller.signal,
        onCaughtUp: () => (caughtUp = true),
      })) {
        received.push(event);
      }
    })();
    try {
      await waitFor(() => caughtUp, { timeoutMs: 10_000, description: "caught up" });
      expect(received).toEqual([]);
    } finally {
      controller.abort();
      await following;
      await client.close();
    }
  });
});
