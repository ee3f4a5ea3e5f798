import { randomUUID } from "node:crypto";
import { jetstream, jetstreamManager, type JetStreamManager } from "@nats-io/jetstream";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import {
  INBOX_STREAM_SUBJECTS,
  decodeMessage,
  formatAddress,
  inboxSubject,
  isValidActorKind,
  parseShardInboxSubject,
  shardInboxSubject,
  shardOf,
  type ActorAddress,
} from "@troupe/protocol";
import fc from "fast-check";
import { expect, test } from "vitest";
import { startTestServers } from "../harness/start-test-servers.js";

/** Creates a stream capturing every shard inbox subject, as the host's inbox stream does. */
async function addInboxStream(manager: JetStreamManager): Promise<string> {
  const name = `FOUNDATION_INBOX_${randomUUID().replaceAll("-", "")}`;
  await manager.streams.add({ name, subjects: [...INBOX_STREAM_SUBJECTS] });
  return name;
}

async function withConnection<T>(
  natsUrl: string,
  use: (connection: NatsConnection) => Promise<T>,
): Promise<T> {
  const connection = await connect({ servers: natsUrl });
  try {
    return await use(connection);
  } finally {
    await connection.close();
  }
}

test('a plain JSON {"type":"user.message"} published to troupe.session.demo-1.in with a bare NATS client lands on the session\'s shard inbox subject and decodes as a valid user.message', async () => {
  await using servers = await startTestServers({ shardCount: 64 });
  await withConnection(servers.natsUrl, async (connection) => {
    const manager = await jetstreamManager(connection);
    const stream = await addInboxStream(manager);
    const session: ActorAddress = { kind: "session", id: "demo-1" };

    // The sending side uses nothing from Troupe: a literal subject and body.
    connection.publish(
      "troupe.session.demo-1.in",
      new TextEncoder().encode('{"type":"user.message","text":"hello"}'),
    );
    await connection.flush();

    const consumer = await jetstream(connection).consumers.get(stream);
    const stored = await consumer.next({ expires: 5_000 });
    expect(stored).not.toBeNull();
    if (stored === null) return;
    const shard = shardOf(session, 64);
    expect(stored.subject).toBe(`_troupe.inbox.${shard}.session.demo-1`);
    expect(stored.subject).toBe(shardInboxSubject(shard, session));

    const { kind, id } = parseShardInboxSubject(stored.subject);
    const message = decodeMessage(stored.data, {
      subject: stored.subject,
      defaults: {
        id: `${kind}/${id}:in:${stored.seq}`,
        timestampMs: Math.floor(stored.info.timestampNanos / 1_000_000),
      },
    });
    expect(message.type).toBe("user.message");
    expect(message.payload).toEqual({ text: "hello" });
    expect(message.id).toBe("session/demo-1:in:1");
    // A plain publisher is not an actor: the message has no sender address.
    expect(message.meta.actor).toBeUndefined();
    expect(message.meta.timestampMs).toBeGreaterThan(0);
  });
});

const tokenCharacters = /^[A-Za-z0-9_-]{1,128}$/;
const addressArbitrary = fc.record({
  kind: fc.oneof(
    fc.constantFrom("session", "run", "tool", "subagent"),
    fc.stringMatching(/^[A-Za-z0-9_-]{1,24}$/).filter(isValidActorKind),
  ),
  id: fc.stringMatching(tokenCharacters),
});

test.each([
  { shardCount: 64, addressCount: 200, seed: 20_240_611 },
  { shardCount: 7, addressCount: 60, seed: 7 },
])(
  "shardOf agrees with the server's partition() mapping for $addressCount random token-safe addresses over $shardCount shards",
  async ({ shardCount, addressCount, seed }) => {
    const sampled = fc.sample(addressArbitrary, { numRuns: addressCount, seed });
    const addresses = [
      ...new Map(sampled.map((address) => [formatAddress(address), address])).values(),
    ];
    expect(addresses.length).toBeGreaterThan(addressCount * 0.9);
    await using servers = await startTestServers({ shardCount });
    await withConnection(servers.natsUrl, async (connection) => {
      const manager = await jetstreamManager(connection);
      const stream = await addInboxStream(manager);
      const client = jetstream(connection);

      const acks = await Promise.all(
        addresses.map(async (address) => await client.publish(inboxSubject(address), "{}")),
      );

      expect(acks.every((ack) => ack.stream === stream)).toBe(true);
      const info = await manager.streams.info(stream, { subjects_filter: ">" });
      const storedSubjects = Object.keys(info.state.subjects ?? {}).sort();
      const expectedSubjects = addresses
        .map((address) => shardInboxSubject(shardOf(address, shardCount), address))
        .sort();
      expect(storedSubjects).toEqual(expectedSubjects);
      expect(info.state.messages).toBe(addresses.length);
    });
  },
);
