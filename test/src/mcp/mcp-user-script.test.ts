/**
 * The host process and the MCP edge are libraries: a user's own `main.ts`
 * runs a host with `@troupe/host`'s `startHostProcess`, and a 15-line script
 * serves the deployment's agents over MCP with `@troupe/mcp`, neither with
 * `@troupe/cli` (fixtures `user-main-host.ts`, `user-mcp-server.ts`; both run
 * as real child processes against real nats-server and redis-server, driven
 * by the official MCP SDK's client).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { readFile } from "node:fs/promises";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeArgsFor } from "../harness/child-code.js";
import { startTestServers, type TestServers } from "../harness/start-test-servers.js";
import { startHostProcess, type HostProcess } from "../support/host-process.js";

const repositoryRoot = fileURLToPath(new URL("../../../", import.meta.url));
const hostEntry = "test/src/fixtures/user-main-host.ts";
const mcpEntry = "test/src/fixtures/user-mcp-server.ts";

/** Starts the MCP script and reads the URL it prints. */
async function startUserMcpServer(natsUrl: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, nodeArgsFor(mcpEntry), {
    cwd: repositoryRoot,
    env: { ...process.env, TROUPE_NATS_URL: natsUrl, TROUPE_PREFIX: "troupe" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = createInterface({ input: child.stdout });
  const exited = once(child, "exit");
  const first = await Promise.race([
    once(lines, "line").then(([line]) => line as string),
    exited.then(([code]) => {
      throw new Error(`the MCP script exited (${String(code)}) before serving:\n${stderr}`);
    }),
  ]);
  return { child, url: first };
}

describe("a user's own host and MCP server, without @troupe/cli", () => {
  let servers: TestServers;
  let host: HostProcess;
  let mcp: { child: ChildProcess; url: string };
  let sdk: Client;
  let stopped = false;

  beforeAll(async () => {
    servers = await startTestServers();
    host = await startHostProcess({
      natsUrl: servers.natsUrl,
      redisUrl: servers.redisUrl,
      entry: hostEntry,
      env: { TROUPE_SHARD_COUNT: String(servers.shardCount) },
    });
    mcp = await startUserMcpServer(servers.natsUrl);
    sdk = new Client({ name: "user-script-test", version: "1.0.0" });
    await sdk.connect(new StreamableHTTPClientTransport(new URL(mcp.url)));
  }, 120_000);

  afterAll(async () => {
    await sdk?.close().catch(() => undefined);
    if (!stopped) {
      mcp?.child.kill("SIGKILL");
      await host?.stop();
    }
    await servers?.stop();
  }, 60_000);

  it("the scripts import no @troupe/cli, and the MCP one is at most 15 lines", async () => {
    for (const entry of [hostEntry, mcpEntry]) {
      const source = await readFile(`${repositoryRoot}${entry}`, "utf8");
      expect(source, entry).not.toMatch(/"@troupe\/cli(\/[^"]*)?"/);
      expect(source, entry).toMatch(/from "@troupe\/(host|mcp)"/);
    }
    const mcpSource = await readFile(`${repositoryRoot}${mcpEntry}`, "utf8");
    expect(mcpSource.trimEnd().split("\n").length).toBeLessThanOrEqual(15);
  });

  it("the host of the user's main.ts serves the demo agent, and the script's MCP server reaches it", async () => {
    const { tools } = await sdk.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["demo"]);
    const result = CallToolResultSchema.parse(
      await sdk.callTool({
        name: "demo",
        arguments: { message: "remember to water the plants" },
      }),
    );
    expect(result.isError).toBeUndefined();
    expect(result.content[0]).toEqual({
      type: "text",
      text: 'Saved your note "to water the plants". You have 1 note.',
    });
    expect((result.structuredContent as { state: string }).state).toBe("completed");
  }, 60_000);

  it("both stop gracefully on SIGTERM", async () => {
    const mcpExit = once(mcp.child, "exit");
    mcp.child.kill("SIGTERM");
    expect((await mcpExit)[0]).toBe(0);
    host.signal("SIGTERM");
    expect(await host.exited).toEqual({ code: 0, signal: null });
    stopped = true;
  }, 60_000);
});
