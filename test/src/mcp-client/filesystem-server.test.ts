/**
 * Tools from a real third-party MCP server (issue #15, Must show):
 * `@modelcontextprotocol/server-filesystem` from npm over stdio, started and
 * supervised by the host. Its read tools (`readOnlyHint`) are `read` and run
 * at once; `write_file` (`idempotentHint`) is an `idempotent_write` that the
 * agent's tool policy puts to a human: approved it writes the file, denied it
 * does not.
 */
import { existsSync } from "node:fs";
import { mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestDeployment, type TestDeployment } from "@troupe/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testRunMarker } from "../harness/test-run-marker.js";
import { mcpTestAgent, packagedServer } from "../fixtures/mcp-agent.js";

describe("MCP client: @modelcontextprotocol/server-filesystem over stdio", () => {
  let deployment: TestDeployment;
  let dir: string;

  beforeAll(async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), "troupe-mcp-fs-")));
    await writeFile(join(dir, "notes.txt"), "hello from disk\nsecond line\n");
    deployment = await createTestDeployment({
      agents: mcpTestAgent({
        mcpServers: { fs: packagedServer("@modelcontextprotocol/server-filesystem", [dir]) },
        toolPolicy: { ask: ["fs__write_file"] },
      }),
      prefix: "mcpfs",
      servers: { dataDirPrefix: testRunMarker() },
    });
  });

  afterAll(async () => {
    await deployment?.stop();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it("offers the server's tools as fs__<tool> beside the agent's own", async () => {
    const outcome = await deployment.sendAndWait("fs-tools", "/tools");
    expect(outcome.status).toBe("completed");
    const names = outcome.status === "completed" ? outcome.text.split(",") : [];
    expect(names).toEqual(
      expect.arrayContaining([
        "clock",
        "fs__read_text_file",
        "fs__list_directory",
        "fs__write_file",
        "fs__edit_file",
      ]),
    );
    const others = names.filter((name) => !name.startsWith("fs__"));
    expect(others.sort()).toEqual(["ask_user", "clock"]);
  });

  it("fs__read_text_file is a read: it runs without approval and the model reads the file's text", async () => {
    const path = join(dir, "notes.txt");
    const outcome = await deployment.sendAndWait(
      "fs-read",
      `/tool fs__read_text_file ${JSON.stringify({ path })}`,
    );
    expect(outcome).toMatchObject({
      status: "completed",
      text: "Tool results:\nfs__read_text_file: hello from disk\nsecond line\n",
    });
    const started = outcome.events.find((event) => event.type === "tool.started");
    expect(started?.payload).toMatchObject({ tool: "fs__read_text_file", effectClass: "read" });
    const types = outcome.events.map((event) => event.type);
    expect(types).toContain("tool.completed");
    expect(types).not.toContain("tool.approval_requested");
  });

  it("fs__write_file is an idempotent_write put to a human: approved, it writes the file", async () => {
    const path = join(dir, "approved.txt");
    const run = deployment.sendAndWait(
      "fs-write-ok",
      `/tool fs__write_file ${JSON.stringify({ path, content: "written after approval" })}`,
    );
    const approval = await deployment.waitForApproval("fs-write-ok", {
      toolName: "fs__write_file",
    });
    expect(approval.arguments).toEqual({ path, content: "written after approval" });
    expect(existsSync(path)).toBe(false);
    expect((await deployment.approve("fs-write-ok", approval)).verdict).toBe("applied");
    const outcome = await run;
    expect(outcome.status).toBe("completed");
    expect(outcome.status === "completed" ? outcome.text : "").toMatch(
      /^Tool results:\nfs__write_file: Successfully wrote to /,
    );
    const started = outcome.events.find((event) => event.type === "tool.started");
    expect(started?.payload).toMatchObject({
      tool: "fs__write_file",
      effectClass: "idempotent_write",
    });
    expect(await readFile(path, "utf8")).toBe("written after approval");
  });

  it("fs__write_file denied: the model hears it was denied and no file is written", async () => {
    const path = join(dir, "denied.txt");
    const run = deployment.sendAndWait(
      "fs-write-no",
      `/tool fs__write_file ${JSON.stringify({ path, content: "must not be written" })}`,
    );
    const approval = await deployment.waitForApproval("fs-write-no", {
      toolName: "fs__write_file",
    });
    expect((await deployment.deny("fs-write-no", approval, { reason: "not now" })).verdict).toBe(
      "applied",
    );
    const outcome = await run;
    expect(outcome).toMatchObject({
      status: "completed",
      text: "Tool results:\nfs__write_file (error): Denied by the user: the call did not run. Reason: not now",
    });
    expect(outcome.events.map((event) => event.type)).not.toContain("tool.started");
    expect(existsSync(path)).toBe(false);
  });
});
