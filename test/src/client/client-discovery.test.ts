import { findFreePort } from "@troupe/dev";
import { startLocalNatsServer, type LocalNatsServer } from "@troupe/dev";
import {
  NatsUnreachableError,
  StreamsMissingError,
  TroupeClient,
  type DevState,
} from "@troupe/client";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { testDataDirPrefix, testRunMarker } from "../harness/test-run-marker.js";

/** Names of the client connections the server's monitor lists (`/connz`). */
async function connectionNames(server: LocalNatsServer): Promise<string[]> {
  const response = await fetch(`${server.monitorUrl}/connz`);
  const body = (await response.json()) as { connections?: { name?: string }[] };
  return (body.connections ?? []).map((connection) => connection.name ?? "");
}

function devState(pid: number, natsUrl: string): DevState {
  return {
    version: 1,
    pid,
    natsUrl,
    redisUrl: "redis://127.0.0.1:1",
    prefix: "discovered",
    shardCount: 8,
    agentModule: "demo",
    agents: ["demo"],
    hosts: [],
    startedAtMs: 1,
  };
}

// issue #13: `TroupeClient.connect()` without a URL finds a running `troupe dev`
// the way the CLI does: option, TROUPE_NATS_URL, the dev state file (live pid), default.
describe("TroupeClient.connect() finds a running troupe dev", () => {
  let server: LocalNatsServer;
  let home: string;
  const saved = { ...process.env };

  beforeAll(async () => {
    server = await startLocalNatsServer({
      port: await findFreePort("127.0.0.1"),
      shardCount: 8,
      dataDirPrefix: testDataDirPrefix("nats"),
    });
  });
  afterAll(async () => {
    await server?.stop();
  });
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), `${testRunMarker()}home-`));
    process.env.TROUPE_HOME = home;
    delete process.env.TROUPE_NATS_URL;
    delete process.env.TROUPE_PREFIX;
  });
  afterEach(async () => {
    process.env = { ...saved };
    await rm(home, { recursive: true, force: true });
  });

  it("connects to the NATS named by the state file, with its prefix", async () => {
    expect(server.url).not.toBe("nats://127.0.0.1:4222");
    await writeFile(join(home, "dev.json"), JSON.stringify(devState(process.pid, server.url)));
    const name = `discovery-${randomUUID()}`;
    await using client = await TroupeClient.connect({ name });
    expect(await connectionNames(server)).toContain(name);
    // The prefix came from the state file too: the streams it looks for are DISCOVERED_*.
    const missing = await client.lastSequence().catch((caught: unknown) => caught);
    expect(StreamsMissingError.isInstance(missing)).toBe(true);
    expect(missing).toMatchObject({ stream: "DISCOVERED_EVENTS" });
  });

  it("TROUPE_NATS_URL wins over the state file, and an explicit natsUrl over both", async () => {
    await writeFile(join(home, "dev.json"), JSON.stringify(devState(process.pid, server.url)));
    const unreachable = `nats://127.0.0.1:${await findFreePort("127.0.0.1")}`;
    process.env.TROUPE_NATS_URL = unreachable;
    const error = await TroupeClient.connect({ connectTimeoutMs: 2_000 }).catch(
      (caught: unknown) => caught,
    );
    expect(NatsUnreachableError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain(unreachable);
    const name = `explicit-${randomUUID()}`;
    await using _client = await TroupeClient.connect({ natsUrl: server.url, name });
    expect(await connectionNames(server)).toContain(name);
  });

  it("a state file whose troupe dev is gone (dead pid) is ignored, as by the CLI", async () => {
    // A pid above the kernel's maximum (4,194,304 on Linux) never exists.
    await writeFile(join(home, "dev.json"), JSON.stringify(devState(99_999_999, server.url)));
    const name = `stale-${randomUUID()}`;
    // It falls through to nats://127.0.0.1:4222, which may or may not answer on a shared machine.
    const client = await TroupeClient.connect({ name, connectTimeoutMs: 2_000 }).catch(
      (caught: unknown) => caught,
    );
    try {
      // Checked while the client is connected: it is not on the stale file's server.
      expect(await connectionNames(server)).not.toContain(name);
      if (!(client instanceof TroupeClient)) {
        expect(NatsUnreachableError.isInstance(client)).toBe(true);
        expect((client as Error).message).toContain("nats://127.0.0.1:4222");
      }
    } finally {
      if (client instanceof TroupeClient) await client.close();
    }
  });
});
