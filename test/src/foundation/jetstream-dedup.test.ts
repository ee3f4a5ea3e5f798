import { randomUUID } from "node:crypto";
import { jetstream, jetstreamManager } from "@nats-io/jetstream";
import { connect, headers } from "@nats-io/transport-node";
import { expect, test } from "vitest";
import { startTestServers } from "../harness/start-test-servers.js";

test("a message round-trips through a real JetStream stream, and a second publish with the same Nats-Msg-Id is acknowledged as a duplicate and not stored", async () => {
  await using servers = await startTestServers();
  const connection = await connect({ servers: servers.natsUrl });
  try {
    const suffix = randomUUID().replaceAll("-", "");
    const stream = `FOUNDATION_DEDUP_${suffix}`;
    const subject = `foundation.dedup.${suffix}`;
    const manager = await jetstreamManager(connection);
    await manager.streams.add({ name: stream, subjects: [subject] });
    const client = jetstream(connection);

    const body = new TextEncoder().encode("exactly once, please");
    const messageHeaders = headers();
    messageHeaders.set("Troupe-Test", "round-trip");
    const messageId = `session/demo-1/${suffix}`;

    const first = await client.publish(subject, body, {
      msgID: messageId,
      headers: messageHeaders,
    });
    const second = await client.publish(subject, body, { msgID: messageId });

    expect(first).toMatchObject({ stream, seq: 1, duplicate: false });
    expect(second).toMatchObject({ stream, seq: 1, duplicate: true });
    const info = await manager.streams.info(stream);
    expect(info.state.messages).toBe(1);
    expect(info.state.last_seq).toBe(1);

    const consumer = await client.consumers.get(stream);
    const delivered = await consumer.next({ expires: 5_000 });
    expect(delivered).not.toBeNull();
    expect(delivered?.subject).toBe(subject);
    expect(delivered?.seq).toBe(1);
    expect(Buffer.from(delivered?.data ?? []).equals(body)).toBe(true);
    expect(delivered?.headers?.get("Nats-Msg-Id")).toBe(messageId);
    expect(delivered?.headers?.get("Troupe-Test")).toBe("round-trip");
  } finally {
    await connection.close();
  }
});
