/**
 * `troupe dev --mcp <name>=<command line>` (issue #15): the demo agent gets an
 * MCP server with one flag. Here the filesystem server from npm, run with
 * `node` from node_modules (no network); `troupe send` then reads a file
 * through it.
 */
import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testRunMarker } from "../harness/test-run-marker.js";
import { runTroupe, startTroupeDev, type TroupeDev } from "../support/troupe-cli.js";

const filesystemServer = fileURLToPath(
  import.meta.resolve("@modelcontextprotocol/server-filesystem/package.json"),
).replace(/package\.json$/, "dist/index.js");

describe("troupe dev --mcp", () => {
  let dir: string;
  let dev: TroupeDev | undefined;
  beforeAll(async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), `${testRunMarker()}mcp-dev-`)));
    await writeFile(join(dir, "todo.txt"), "water the plants");
  });
  afterAll(async () => {
    await dev?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it("refuses a malformed --mcp before starting anything", async () => {
    const home = await mkdtemp(join(tmpdir(), `${testRunMarker()}cli-`));
    try {
      const result = await runTroupe(["dev", "--mcp", "fs"], { home, timeoutMs: 30_000 });
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain(
        "option '--mcp <name=command line>' argument 'fs' is invalid. expected <name>=<command line>",
      );
      expect(result.stdout).not.toContain("nats-server");
      const withModule = await runTroupe(
        ["dev", "--agent", "./my-agents.mjs", "--mcp", "fs=npx server"],
        { home, timeoutMs: 30_000 },
      );
      expect(withModule.code).toBe(1);
      expect(withModule.stderr).toContain(
        "--mcp gives the demo agent MCP servers; an agent module lists its own in defineAgent({ mcpServers })",
      );
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });

  it("gives the demo agent the filesystem server: troupe send reads a file through fs__read_text_file", async () => {
    const command = `fs=${JSON.stringify(process.execPath)} ${JSON.stringify(filesystemServer)} ${JSON.stringify(dir)}`;
    dev = await startTroupeDev(["--hosts", "1", "--mcp", command]);
    expect(dev.output()).toContain(`mcp    fs: ${process.execPath} ${filesystemServer} ${dir}`);
    const path = join(dir, "todo.txt");
    const sent = await runTroupe(
      ["send", "mcp-dev-1", `/tool fs__read_text_file ${JSON.stringify({ path })}`, "--wait"],
      { home: dev.home, timeoutMs: 60_000 },
    );
    expect(sent.code).toBe(0);
    // The run's progress, on stderr: the MCP tool ran and answered.
    expect(sent.stderr).toContain("✓ fs__read_text_file → water the plants");
    expect(sent.stdout).toContain("fs__read_text_file: water the plants");
  }, 120_000);
});
