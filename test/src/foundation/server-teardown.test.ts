import { existsSync } from "node:fs";
import { connect as connectTcp } from "node:net";
import { findServerBinary, startLocalNatsServer, startLocalRedisServer } from "@troupe/dev";
import { describe, expect, test } from "vitest";
import { startTestServers } from "../harness/start-test-servers.js";
import { testDataDirPrefix } from "../harness/test-run-marker.js";

const binariesInstalled =
  findServerBinary("nats-server") !== undefined && findServerBinary("redis-server") !== undefined;

function isProcessRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function acceptsConnections(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return await new Promise<boolean>((resolve) => {
    const socket = connectTcp({ host: hostname.replace(/^\[|\]$/g, ""), port: Number(port) });
    socket.setTimeout(1_000, () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

describe.skipIf(!binariesInstalled)("local servers", () => {
  test("stopping local servers ends their processes and deletes their temporary folders", async () => {
    const nats = await startLocalNatsServer({ dataDirPrefix: testDataDirPrefix("nats") });
    const redis = await startLocalRedisServer({
      appendOnly: true,
      dataDirPrefix: testDataDirPrefix("redis"),
    });
    expect(isProcessRunning(nats.pid)).toBe(true);
    expect(isProcessRunning(redis.pid)).toBe(true);
    expect(existsSync(nats.dataDir)).toBe(true);
    expect(existsSync(redis.dataDir)).toBe(true);

    await Promise.all([nats.stop(), redis.stop()]);

    expect(isProcessRunning(nats.pid)).toBe(false);
    expect(isProcessRunning(redis.pid)).toBe(false);
    expect(existsSync(nats.dataDir)).toBe(false);
    expect(existsSync(redis.dataDir)).toBe(false);
    expect(await acceptsConnections(nats.url)).toBe(false);
    expect(await acceptsConnections(redis.url)).toBe(false);
    await Promise.all([nats.stop(), redis.stop()]);
  });
});

test("stopping test servers makes both URLs refuse connections", async () => {
  const servers = await startTestServers();
  expect(await acceptsConnections(servers.natsUrl)).toBe(true);
  expect(await acceptsConnections(servers.redisUrl)).toBe(true);
  const processIds =
    servers.local === undefined ? [] : [servers.local.nats.pid, servers.local.redis.pid];

  await servers.stop();

  expect(await acceptsConnections(servers.natsUrl)).toBe(false);
  expect(await acceptsConnections(servers.redisUrl)).toBe(false);
  for (const pid of processIds) expect(isProcessRunning(pid)).toBe(false);
});
