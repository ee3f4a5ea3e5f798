import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { jetstream, jetstreamManager } from "@nats-io/jetstream";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import { agentKinds } from "@troupe/agents";
import { demoAgents } from "@troupe/host";
import { startLocalRedisServer, type LocalServer } from "@troupe/dev";
import { renderTenantsConfig, type TenantSpec } from "@troupe/admin";
import { TroupeClient } from "@troupe/client";
import { streamNames } from "@troupe/protocol";
import { ActorHost } from "@troupe/runtime";
import { Redis } from "ioredis";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDataDirPrefix, testRunMarker } from "../harness/test-run-marker.js";
import { waitFor } from "../support/wait-for.js";
import { startConfiguredNatsServer, type SecureServer } from "./secure-servers.js";

// Issue #17: two tenants on one nats-server and one redis-server, configured
// from `renderTenantsConfig` (the generator of `troupe tenants config`). Each
// tenant's deployment works; tenant A's credentials can neither publish into,
// subscribe to, nor read the streams or keys of tenant B.
const SHARDS = 4;
const tenants: TenantSpec[] = ["tenant-a", "tenant-b"].map((name) => ({
  name,
  hostPassword: `${name}-host-pw`,
  clientPassword: `${name}-client-pw`,
  redisPassword: `${name}-redis-pw`,
}));
const [tenantA, tenantB] = tenants as [TenantSpec, TenantSpec];
const streamsA = streamNames(tenantA.name);
const streamsB = streamNames(tenantB.name);

interface TenantDeployment {
  readonly hostNats: NatsConnection;
  readonly hostRedis: Redis;
  readonly host: ActorHost;
  readonly client: TroupeClient;
}

let folder: string;
let nats: SecureServer;
let redisServer: LocalServer;
let natsUrl: string;
const deployments = new Map<string, TenantDeployment>();
const opened: { close(): Promise<unknown> }[] = [];

async function startTenant(tenant: TenantSpec): Promise<TenantDeployment> {
  const hostNats = await connect({
    servers: natsUrl,
    user: `${tenant.name}-host`,
    pass: tenant.hostPassword,
  });
  const hostRedis = new Redis(redisServer.url, {
    username: tenant.name,
    password: tenant.redisPassword,
  });
  const host = await ActorHost.start({
    nats: hostNats,
    redis: hostRedis,
    kinds: agentKinds({ agents: demoAgents({ redis: hostRedis, env: {} }) }),
    settings: { prefix: tenant.name, shardCount: SHARDS, membershipSettleMs: 0 },
    logger: pino({ level: "silent" }),
  });
  const client = await TroupeClient.connect({
    natsUrl,
    credentials: { user: `${tenant.name}-client`, pass: tenant.clientPassword },
    prefix: tenant.name,
  });
  return { hostNats, hostRedis, host, client };
}

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), `${testRunMarker()}tenants-`));
  const config = renderTenantsConfig({ tenants, shardCount: SHARDS });
  nats = await startConfiguredNatsServer(folder, config.natsAccounts, SHARDS);
  natsUrl = `nats://127.0.0.1:${nats.port}`;
  redisServer = await startLocalRedisServer({ dataDirPrefix: testDataDirPrefix("redis") });
  const admin = new Redis(redisServer.url);
  for (const line of config.redisAcl.split("\n").filter((entry) => entry !== "")) {
    await admin.call("ACL", "SETUSER", ...line.split(" ").slice(1));
  }
  admin.disconnect();
  for (const tenant of tenants) deployments.set(tenant.name, await startTenant(tenant));
}, 60_000);

afterAll(async () => {
  for (const connection of opened) await connection.close().catch(() => undefined);
  for (const { host, client, hostNats, hostRedis } of deployments.values()) {
    await client.close().catch(() => undefined);
    await host.stop().catch(() => undefined);
    await hostNats.close().catch(() => undefined);
    hostRedis.disconnect();
  }
  await nats?.stop();
  await redisServer?.stop();
  await rm(folder, { recursive: true, force: true });
});

/** A raw NATS connection with tenant A's client credentials. */
async function connectAsClientA(): Promise<NatsConnection> {
  const connection = await connect({
    servers: natsUrl,
    user: `${tenantA.name}-client`,
    pass: tenantA.clientPassword,
  });
  opened.push(connection);
  return connection;
}

describe("tenant isolation with NATS accounts and Redis ACL users (issue #17)", () => {
  it("each tenant's deployment completes a turn with its client credentials", async () => {
    for (const tenant of tenants) {
      const outcome = await deployments
        .get(tenant.name)!
        .client.sendAndWait(`${tenant.name}-1`, "hello", { timeoutMs: 30_000 });
      expect(outcome.status).toBe("completed");
    }
  }, 60_000);

  it("tenant A subscribed to every subject sees none of tenant B's traffic", async () => {
    const connectionA = await connectAsClientA();
    const seen: string[] = [];
    const subscription = connectionA.subscribe(">", {
      callback: (_error, message) => {
        seen.push(`${message.subject} ${message.string()}`);
      },
    });
    await connectionA.flush();
    const outcome = await deployments
      .get(tenantB.name)!
      .client.sendAndWait("b-private-7", "hello", { timeoutMs: 30_000 });
    expect(outcome.status).toBe("completed");
    await connectionA.flush();
    subscription.unsubscribe();
    expect(seen.filter((line) => line.includes("b-private-7"))).toEqual([]);
  }, 60_000);

  it("tenant A's JetStream API knows only A's streams: B's streams and events cannot be read", async () => {
    const jsmA = await jetstreamManager(await connectAsClientA());
    const names: string[] = [];
    for await (const name of jsmA.streams.names()) names.push(name);
    expect(names.sort()).toEqual(expect.arrayContaining([streamsA.inbox, streamsA.events]));
    expect(names.filter((name) => name.startsWith("TENANT-B"))).toEqual([]);
    await expect(jsmA.streams.info(streamsB.events)).rejects.toThrow(/stream not found/i);
    await expect(jsmA.streams.getMessage(streamsB.events, { seq: 1 })).rejects.toThrow(
      /stream not found/i,
    );
  }, 30_000);

  it("a publish by tenant A to tenant B's session subject stays in A's account", async () => {
    const jsmB = await jetstreamManager(deployments.get(tenantB.name)!.hostNats);
    const before = (await jsmB.streams.info(streamsB.inbox)).state.messages;
    const jsA = jetstream(await connectAsClientA());
    const ack = await jsA.publish(
      "troupe.session.b-private-7.in",
      '{"type":"user.message","text":"intrusion"}',
    );
    // Stored in A's inbox stream (A's own session of that name), not B's.
    expect(ack.stream).toBe(streamsA.inbox);
    await waitFor(async () => (await jsmB.streams.info(streamsB.inbox)).state.messages === before, {
      timeoutMs: 1_000,
      description: "B's inbox unchanged",
    });
    expect((await jsmB.streams.info(streamsB.inbox)).state.messages).toBe(before);
  }, 30_000);

  it("tenant A's client user may not delete its own streams or forge a session event", async () => {
    const connectionA = await connectAsClientA();
    const jsmA = await jetstreamManager(connectionA, { timeout: 2_000 });
    await expect(jsmA.streams.delete(streamsA.inbox)).rejects.toThrow();
    const hostJsmA = await jetstreamManager(deployments.get(tenantA.name)!.hostNats);
    expect((await hostJsmA.streams.info(streamsA.inbox)).config.name).toBe(streamsA.inbox);
    const jsA = jetstream(connectionA, { timeout: 2_000 });
    const forged = "troupe.session.forged-9.events.run.completed";
    await expect(jsA.publish(forged, "forged")).rejects.toThrow();
    await expect(
      hostJsmA.streams.getMessage(streamsA.events, { last_by_subj: forged }),
    ).resolves.toBeNull();
  }, 30_000);

  it("tenant A's Redis user reads its own keys and is refused tenant B's and KEYS", async () => {
    const redisA = new Redis(redisServer.url, {
      username: tenantA.name,
      password: tenantA.redisPassword,
      maxRetriesPerRequest: 0,
    });
    opened.push({ close: () => Promise.resolve(redisA.disconnect()) });
    expect(await redisA.hget(`${tenantA.name}:deployment`, "shardCount")).toBe(String(SHARDS));
    await expect(redisA.hget(`${tenantB.name}:deployment`, "shardCount")).rejects.toThrow(/NOPERM/);
    await expect(redisA.set(`${tenantB.name}:lease:0`, "stolen")).rejects.toThrow(/NOPERM/);
    await expect(redisA.keys("*")).rejects.toThrow(/NOPERM/);
  }, 30_000);
});
