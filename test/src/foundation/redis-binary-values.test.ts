import { randomBytes, randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startTestServers, type TestServers } from "../harness/start-test-servers.js";

let servers: TestServers | undefined;
let redis: Redis | undefined;
const keyPrefix = `foundation:binary:${randomUUID()}:`;

beforeAll(async () => {
  servers = await startTestServers();
  redis = new Redis(servers.redisUrl, { lazyConnect: true });
  await redis.connect();
});

afterAll(async () => {
  await redis?.quit();
  await servers?.stop();
});

function client(): Redis {
  if (redis === undefined) throw new Error("beforeAll did not connect to Redis");
  return redis;
}

test("every byte value 0..255 round-trips through a real Redis string intact", async () => {
  const value = Buffer.from(Array.from({ length: 256 }, (_, index) => index));
  await client().set(`${keyPrefix}all-bytes`, value);

  const stored = await client().getBuffer(`${keyPrefix}all-bytes`);

  expect(stored).toBeInstanceOf(Buffer);
  expect(stored?.length).toBe(256);
  expect(stored?.equals(value)).toBe(true);
});

test("64 KiB of random bytes round-trip through a real Redis string and hash field intact", async () => {
  const value = randomBytes(64 * 1024);
  await client().set(`${keyPrefix}random`, value);
  await client().hset(`${keyPrefix}hash`, "snapshot", value);

  const stored = await client().getBuffer(`${keyPrefix}random`);
  const storedField = await client().hgetBuffer(`${keyPrefix}hash`, "snapshot");

  expect(stored?.equals(value)).toBe(true);
  expect(storedField?.equals(value)).toBe(true);
});
