import { Cluster, Redis } from "ioredis";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConnectionConfigError } from "./connection-config-error.js";
import { createRedisConnection } from "./create-redis-connection.js";

let folder: string;
let caFile: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "troupe-redis-factory-"));
  caFile = join(folder, "ca.pem");
  await writeFile(caFile, "-----BEGIN CERTIFICATE-----\nnot parsed here\n");
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

// lazyConnect: nothing is dialled; the tests read the options ioredis was given.
describe("createRedisConnection (issue #17)", () => {
  it("opens a TLS Redis for a rediss:// URL with the URL's user, password and db", () => {
    const redis = createRedisConnection(
      { mode: "standalone", url: "rediss://app:p%40ss@redis.example:6380/3", tls: { caFile } },
      { lazyConnect: true },
    );
    expect(redis).toBeInstanceOf(Redis);
    const options = (redis as Redis).options;
    expect(options).toMatchObject({
      host: "redis.example",
      port: 6380,
      db: 3,
      username: "app",
      password: "p@ss",
    });
    expect(options.tls?.ca?.toString()).toContain("not parsed here");
    redis.disconnect();
  });

  it("lets the ACL settings override the URL's userinfo and keeps plain TCP for redis://", () => {
    const redis = createRedisConnection(
      {
        mode: "standalone",
        url: "redis://old:old@127.0.0.1:6379",
        username: "new",
        password: "pw",
      },
      { lazyConnect: true },
    ) as Redis;
    expect(redis.options).toMatchObject({ username: "new", password: "pw" });
    expect(redis.options.tls).toBeUndefined();
    redis.disconnect();
  });

  it("opens a Cluster over the seed nodes with the credentials on every node", () => {
    const cluster = createRedisConnection(
      { mode: "cluster", nodes: ["redis://a:7000", "redis://b:7001"], password: "pw" },
      { lazyConnect: true, maxRetriesPerRequest: 1 },
    );
    expect(cluster).toBeInstanceOf(Cluster);
    const { startupNodes, options } = cluster as unknown as {
      startupNodes: { host: string; port: number }[];
      options: { redisOptions: Record<string, unknown>; lazyConnect: boolean };
    };
    expect(startupNodes).toEqual([
      { host: "a", port: 7000 },
      { host: "b", port: 7001 },
    ]);
    expect(options.redisOptions).toMatchObject({ password: "pw", maxRetriesPerRequest: 1 });
    expect(options.lazyConnect).toBe(true);
    cluster.disconnect();
  });

  it("finds the master through Sentinel: sentinels, master name, sentinel password", () => {
    const redis = createRedisConnection(
      {
        mode: "sentinel",
        sentinels: ["10.0.0.1:26380", "10.0.0.2"],
        masterName: "troupe",
        sentinelPassword: "spw",
        username: "app",
        password: "pw",
      },
      { lazyConnect: true },
    ) as Redis;
    expect(redis.options).toMatchObject({
      sentinels: [
        { host: "10.0.0.1", port: 26380 },
        { host: "10.0.0.2", port: 26379 },
      ],
      name: "troupe",
      sentinelPassword: "spw",
      username: "app",
      password: "pw",
    });
    redis.disconnect();
  });

  it("refuses a URL that is not redis:// or rediss:// without echoing its password", () => {
    const attempt = () =>
      createRedisConnection(
        { mode: "standalone", url: "http://u:hunter2@h:1" },
        { lazyConnect: true },
      );
    expect(attempt).toThrow(ConnectionConfigError);
    expect(attempt).toThrow(/http:\/\/u:\*\*\*@h:1 must start with redis:\/\//);
  });
});
