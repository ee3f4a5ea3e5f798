import { Redis } from "ioredis";
import { afterAll, beforeAll } from "vitest";
import { startTestServers, type TestServers } from "../harness/start-test-servers.js";

/**
 * Gives the calling test file real servers and one connected Redis client:
 * registers a `beforeAll` that starts them and an `afterAll` that closes the
 * client and stops the servers. Call it at the top level of a test file.
 *
 * @returns the client; throws when called before `beforeAll` connected it.
 * @example
 * const redis = useRedisSuite();
 * it("…", async () => { await redis().set("k", "v"); });
 */
export function useRedisSuite(): () => Redis {
  let servers: TestServers | undefined;
  let redis: Redis | undefined;
  beforeAll(async () => {
    servers = await startTestServers();
    redis = new Redis(servers.redisUrl, { lazyConnect: true });
    await redis.connect();
  });
  afterAll(async () => {
    await redis?.quit();
    await servers?.stop();
  });
  return () => {
    if (redis === undefined) throw new Error("beforeAll did not connect to Redis");
    return redis;
  };
}
