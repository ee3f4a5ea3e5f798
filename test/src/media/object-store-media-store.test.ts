/**
 * The media store on a real JetStream Object Store (issue #31): large objects
 * read back whole, concurrent puts of one file store it once, and a read
 * object is served from memory by later calls (a session's follow-ups), and
 * a read whose server stops answering ends at its deadline with a typed error.
 */
import { randomBytes } from "node:crypto";
import { createServer, connect as connectTcp, type Server, type Socket } from "node:net";
import { jetstream, jetstreamManager } from "@nats-io/jetstream";
import { Objm } from "@nats-io/obj";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import { ObjectStoreMediaStore } from "@troupe/agents";
import { MediaRejectedError, StoreReadTimeoutError } from "@troupe/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServers, type TestServers } from "../harness/start-test-servers.js";

const MIB = 1024 * 1024;

/**
 * A TCP relay on loopback in front of nats-server whose server-to-client
 * direction can be held (a server or network that stops answering) and let go
 * again (what was held is then delivered in order).
 */
async function startStallingRelay(target: string) {
  const { hostname, port } = new URL(target);
  let stalled = false;
  const held: { socket: Socket; data: Buffer }[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connectTcp(Number(port), hostname);
    sockets.add(client).add(upstream);
    client.on("data", (data) => upstream.write(data));
    upstream.on("data", (data) =>
      stalled ? held.push({ socket: client, data }) : client.write(data),
    );
    const end = () => (client.destroy(), upstream.destroy());
    client.on("close", end).on("error", end);
    upstream.on("close", end).on("error", end);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("relay has no port");
  return {
    url: `nats://127.0.0.1:${address.port}`,
    stall: () => (stalled = true),
    resume: () => {
      stalled = false;
      for (const { socket, data } of held.splice(0)) socket.write(data);
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe("ObjectStoreMediaStore (issue #31)", () => {
  let servers: TestServers;
  let nats: NatsConnection;

  beforeAll(async () => {
    servers = await startTestServers();
    nats = await connect({ servers: servers.natsUrl });
  }, 60_000);

  afterAll(async () => {
    await nats?.close();
    await servers?.stop();
  });

  const store = (bucket: string, cacheBytes?: number) =>
    new ObjectStoreMediaStore(jetstream(nats, { timeout: 30_000 }), { bucket, cacheBytes });

  it.each([1, 2.1, 15, 20])("an object of %s MiB is stored and read back whole", async (mib) => {
    const bytes = randomBytes(Math.floor(mib * MIB));
    const media = store(`big-${String(mib).replace(".", "-")}`, 0);
    const ref = await media.put(bytes, { mediaType: "image/png" });
    expect(ref.size).toBe(bytes.length);
    const read = await media.get(ref);
    expect(read.length).toBe(bytes.length);
    expect(Buffer.from(read).equals(bytes)).toBe(true);
  });

  it("five concurrent puts of one file store it once", async () => {
    const bytes = randomBytes(2 * MIB);
    const media = store("concurrent");
    const refs = await Promise.all(
      Array.from({ length: 5 }, () => media.put(bytes, { mediaType: "image/png" })),
    );
    expect(new Set(refs.map((ref) => ref.digest)).size).toBe(1);
    // One object: its 16 chunks of 128 KiB and one metadata message.
    const info = await (await jetstreamManager(nats)).streams.info("OBJ_concurrent");
    expect(info.state.messages).toBe(2 * 8 + 1);
  });

  it("an object read once is served from memory, up to cacheBytes", async () => {
    const bytes = randomBytes(MIB);
    const cached = store("cached");
    const ref = await cached.put(bytes, { mediaType: "image/png" });
    expect(Buffer.from(await cached.get(ref)).equals(bytes)).toBe(true);
    // The object goes from the bucket: a store that read it still serves it,
    // one that keeps nothing in memory reads the bucket and finds nothing.
    await (await new Objm(jetstream(nats)).open("cached")).delete(ref.digest);
    expect(Buffer.from(await cached.get(ref)).equals(bytes)).toBe(true);
    const uncached = store("cached", 0);
    await expect(uncached.get(ref)).rejects.toSatisfy(
      (error: unknown) => MediaRejectedError.isInstance(error) && error.reason === "not_found",
    );
    // A reference that names another size is refused, not served from memory.
    await expect(cached.get({ ...ref, size: ref.size + 1 })).rejects.toSatisfy((error: unknown) =>
      MediaRejectedError.isInstance(error),
    );
  });

  it("a cache of 1.5 MiB keeps the most recently read object of 1 MiB only", async () => {
    const media = store("lru", 1.5 * MIB);
    const first = randomBytes(MIB);
    const second = randomBytes(MIB);
    const firstRef = await media.put(first, { mediaType: "image/png" });
    const secondRef = await media.put(second, { mediaType: "image/png" });
    await media.get(firstRef);
    await media.get(secondRef);
    const bucket = await new Objm(jetstream(nats)).open("lru");
    await bucket.delete(firstRef.digest);
    await bucket.delete(secondRef.digest);
    expect(Buffer.from(await media.get(secondRef)).equals(second)).toBe(true);
    await expect(media.get(firstRef)).rejects.toSatisfy(
      (error: unknown) => MediaRejectedError.isInstance(error) && error.reason === "not_found",
    );
  });

  it("a read whose server stops answering fails at its deadline with StoreReadTimeoutError, and the next read succeeds", async () => {
    const bytes = randomBytes(2 * MIB);
    const ref = await store("stalled").put(bytes, { mediaType: "image/png" });
    const relay = await startStallingRelay(servers.natsUrl);
    const relayed = await connect({ servers: relay.url });
    try {
      const media = new ObjectStoreMediaStore(jetstream(relayed, { timeout: 30_000 }), {
        bucket: "stalled",
        cacheBytes: 0,
        readTimeoutMs: 500,
      });
      relay.stall();
      const error = await media.get(ref).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(StoreReadTimeoutError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({
        code: "timeout",
        retryable: true,
        store: "object_store",
        bucketOrStream: "stalled",
        key: ref.digest,
        timeoutMs: 500,
      });
      relay.resume();
      expect(Buffer.from(await media.get(ref)).equals(bytes)).toBe(true);
    } finally {
      await relayed.close();
      await relay.close();
    }
  });
});
