import { startDevCluster } from "@troupe/dev";
import { troupeHostCommand } from "@troupe/cli/internal";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testRunMarker } from "../harness/test-run-marker.js";
import { startTestServers, type TestServers } from "../harness/start-test-servers.js";
import { waitFor } from "../support/wait-for.js";

const crashingAgent = fileURLToPath(new URL("../fixtures/crashing-agent.ts", import.meta.url));

describe("troupe dev's host supervision", () => {
  let servers: TestServers;
  let home: string;
  const savedHome = process.env.TROUPE_HOME;

  beforeAll(async () => {
    servers = await startTestServers();
    home = await mkdtemp(join(tmpdir(), `${testRunMarker()}dev-home-`));
    process.env.TROUPE_HOME = home;
  }, 60_000);

  afterAll(async () => {
    if (savedHome === undefined) delete process.env.TROUPE_HOME;
    else process.env.TROUPE_HOME = savedHome;
    await rm(home, { recursive: true, force: true });
    await servers?.stop();
  }, 30_000);

  it("restarts a host that dies, and leaves one that keeps dying down", async () => {
    const exits: string[] = [];
    const lines: string[] = [];
    let restarts = 0;
    const cluster = await startDevCluster({
      hostCommand: troupeHostCommand,
      hosts: 1,
      agentModule: crashingAgent,
      natsUrl: servers.natsUrl,
      redisUrl: servers.redisUrl,
      shardCount: servers.shardCount,
      dataDir: join(home, "dev"),
      restartDelayMs: 50,
      maxRestartsPerMinute: 1,
      onHostExit: (_number, _host, exit) => exits.push(exit),
      onHostRestart: () => (restarts += 1),
      onHostOutput: (_number, line) => lines.push(line),
    });
    try {
      expect(cluster.state.agents).toEqual(["crasher"]);
      await waitFor(() => lines.some((line) => line.includes("not restarting it")), {
        timeoutMs: 45_000,
        description: "troupe dev gives up on the crashing host",
      });
      expect(exits).toEqual(["exit code 3", "exit code 3"]);
      expect(restarts).toBe(1);
      expect(lines).toContain(
        "exited 2 times within a minute; not restarting it (its output is above)",
      );
    } finally {
      await cluster.stop();
    }
  }, 90_000);
});
